package credentials

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"

	"github.com/storectl/storectl/internal/fsutil"
)

// File is the opt-in token file (--insecure-storage): JSON, mode 0600,
// separate from config.yaml so the config can be shared without secrets.
type File struct {
	Path string
}

type fileData struct {
	Profiles map[string]map[Kind]string `json:"profiles"`
}

func (f *File) load() (fileData, error) {
	d := fileData{Profiles: map[string]map[Kind]string{}}
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return d, fmt.Errorf("cannot read credentials file: %w", err)
	}
	if runtime.GOOS != "windows" {
		if info, err := os.Stat(f.Path); err == nil && info.Mode().Perm()&0o077 != 0 {
			return d, fmt.Errorf("credentials file %s is readable by other users (mode %v): run `chmod 600 %s`", f.Path, info.Mode().Perm(), f.Path)
		}
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return d, fmt.Errorf("credentials file %s is not valid JSON (%v): fix or delete it and log in again", f.Path, err)
	}
	if d.Profiles == nil {
		d.Profiles = map[string]map[Kind]string{}
	}
	return d, nil
}

func (f *File) save(d fileData) error {
	for name, kinds := range d.Profiles {
		if len(kinds) == 0 {
			delete(d.Profiles, name)
		}
	}
	if len(d.Profiles) == 0 {
		err := os.Remove(f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(f.Path, data, 0o600)
}

// Get returns "" when the file has no such token.
func (f *File) Get(profile string, kind Kind) (string, error) {
	if _, err := os.Stat(f.Path); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	d, err := f.load()
	if err != nil {
		return "", err
	}
	return d.Profiles[profile][kind], nil
}

func (f *File) Set(profile string, kind Kind, token string) error {
	d, err := f.load()
	if err != nil {
		return err
	}
	if d.Profiles[profile] == nil {
		d.Profiles[profile] = map[Kind]string{}
	}
	d.Profiles[profile][kind] = token
	return f.save(d)
}

func (f *File) Delete(profile string, kind Kind) error {
	if _, err := os.Stat(f.Path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	d, err := f.load()
	if err != nil {
		return err
	}
	delete(d.Profiles[profile], kind)
	return f.save(d)
}
