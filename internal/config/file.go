package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/storectl/storectl/internal/fsutil"
)

// DefaultProfile is used when neither flag, env nor file names one.
const DefaultProfile = "default"

// File is the parsed config file. Values are kept as strings, validated
// against Keys when read and when set.
type File struct {
	Path           string
	CurrentProfile string
	Profiles       map[string]map[string]string
}

// FileError points at a line of the config file.
type FileError struct {
	Path string
	Line int
	Msg  string
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// CheckProfileName keeps profile names safe as keyring entries and file keys.
func CheckProfileName(name string) error {
	if !validProfileName(name) {
		return fmt.Errorf("invalid profile name %q: use letters, digits, '.', '_' or '-' (at most 64)", name)
	}
	return nil
}

// validProfileName is ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$, checked by hand:
// that expression compiles to 63 copies of its class, allocated at every
// start, and every run checks its profile's name.
func validProfileName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// Path returns the config file's path.
func Path() (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", fmt.Errorf("cannot find a config directory: %w (set STORECTL_CONFIG_DIR)", err)
	}
	return filepath.Join(dir, "config.yaml"), nil
}

// Load reads the config file; a missing file is an empty config.
func Load() (*File, error) {
	path, err := Path()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Path: path, Profiles: map[string]map[string]string{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read config file: %w", err)
	}
	return Parse(path, data)
}

// Parse validates data strictly: unknown keys, wrong shapes and bad values
// are errors that name the file and line, so a typo never goes unnoticed.
func Parse(path string, data []byte) (*File, error) {
	f := &File{Path: path, Profiles: map[string]map[string]string{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &FileError{Path: path, Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if len(doc.Content) == 0 {
		return f, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, &FileError{Path: path, Line: root.Line, Msg: "expected a mapping with current_profile and profiles"}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i], root.Content[i+1]
		switch key.Value {
		case "current_profile":
			if val.Kind != yaml.ScalarNode {
				return nil, &FileError{Path: path, Line: val.Line, Msg: "current_profile must be a profile name"}
			}
			f.CurrentProfile = val.Value
		case "profiles":
			if err := parseProfiles(f, val); err != nil {
				return nil, err
			}
		default:
			return nil, &FileError{Path: path, Line: key.Line, Msg: fmt.Sprintf("unknown key %q (known: current_profile, profiles; settings go under profiles.<name>)", key.Value)}
		}
	}
	return f, nil
}

func parseProfiles(f *File, node *yaml.Node) error {
	if node.Kind != yaml.MappingNode {
		return &FileError{Path: f.Path, Line: node.Line, Msg: "profiles must be a mapping of profile name to settings"}
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		name, body := node.Content[i], node.Content[i+1]
		if err := CheckProfileName(name.Value); err != nil {
			return &FileError{Path: f.Path, Line: name.Line, Msg: err.Error()}
		}
		settings := map[string]string{}
		if body.Kind != yaml.MappingNode && !(body.Kind == yaml.ScalarNode && body.Tag == "!!null") {
			return &FileError{Path: f.Path, Line: body.Line, Msg: fmt.Sprintf("profile %q must be a mapping of settings", name.Value)}
		}
		for j := 0; j+1 < len(body.Content); j += 2 {
			k, v := body.Content[j], body.Content[j+1]
			key, ok := LookupKey(k.Value)
			if !ok {
				return &FileError{Path: f.Path, Line: k.Line, Msg: fmt.Sprintf("unknown key %q in profile %q (known: %s)", k.Value, name.Value, strings.Join(KeyNames(), ", "))}
			}
			if v.Kind != yaml.ScalarNode {
				return &FileError{Path: f.Path, Line: v.Line, Msg: fmt.Sprintf("%s must be a single value", k.Value)}
			}
			if err := key.Check(v.Value); err != nil {
				return &FileError{Path: f.Path, Line: v.Line, Msg: fmt.Sprintf("%s: %v", k.Value, err)}
			}
			settings[k.Value] = v.Value
		}
		f.Profiles[name.Value] = settings
	}
	return nil
}

// ProfileNames returns the profiles in the file, sorted.
func (f *File) ProfileNames() []string {
	names := make([]string, 0, len(f.Profiles))
	for n := range f.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Set stores a validated value in a profile, creating the profile.
func (f *File) Set(profile, key, value string) error {
	k, ok := LookupKey(key)
	if !ok {
		return fmt.Errorf("unknown key %q (known: %s)", key, strings.Join(KeyNames(), ", "))
	}
	if err := k.Check(value); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	if f.Profiles[profile] == nil {
		f.Profiles[profile] = map[string]string{}
	}
	f.Profiles[profile][key] = value
	return nil
}

// Save writes the file atomically with mode 0600 (it may name private
// store URLs). Keys are written in the order of Keys.
func (f *File) Save() error {
	root := &yaml.Node{Kind: yaml.MappingNode}
	if f.CurrentProfile != "" {
		root.Content = append(root.Content, scalar("current_profile"), scalar(f.CurrentProfile))
	}
	if len(f.Profiles) > 0 {
		profiles := &yaml.Node{Kind: yaml.MappingNode}
		for _, name := range f.ProfileNames() {
			body := &yaml.Node{Kind: yaml.MappingNode}
			for _, k := range Keys {
				if v, ok := f.Profiles[name][k.Name]; ok {
					body.Content = append(body.Content, scalar(k.Name), scalar(v))
				}
			}
			profiles.Content = append(profiles.Content, scalar(name), body)
		}
		root.Content = append(root.Content, scalar("profiles"), profiles)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(f.Path, buf.Bytes(), 0o600)
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }
