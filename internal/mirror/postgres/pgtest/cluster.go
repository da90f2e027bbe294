// Package pgtest starts a throwaway PostgreSQL server for tests and
// benchmarks: initdb into a temporary directory as an unprivileged user (the
// server refuses to run as root), a free port on 127.0.0.1, a superuser with
// a random password. CI and `go test` outside CI use the same code: .ci/run
// through cmd pgcluster, a test binary through Main.
package pgtest

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/storectl/storectl/internal/fsutil"
)

// Cluster is a running throwaway server.
type Cluster struct {
	Dir  string // holds data/, the socket and the server's log
	URL  string // the superuser's URL, password included
	bin  string
	user string // the system user the server runs as; "" for this one
}

// Options shape a cluster.
type Options struct {
	// Durable keeps fsync and synchronous_commit on, as a real server runs:
	// benchmarks want that; tests do not need it.
	Durable bool
}

// systemUser is who runs the server when this process is root.
const systemUser = "storectl-pg"

// FindBin is the directory of initdb and pg_ctl: $STORECTL_PG_BIN, else
// pg_config's bindir, else the newest /usr/lib/postgresql/*/bin (Debian
// keeps them off PATH).
func FindBin() (string, error) {
	if dir := os.Getenv("STORECTL_PG_BIN"); dir != "" {
		return dir, nil
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dir := strings.TrimSpace(string(out))
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errors.New("no PostgreSQL server binaries (initdb, pg_ctl) found: install the postgresql package, or set STORECTL_PG_BIN")
}

func versionOf(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// Start initialises and starts a server in dir (created; it must be new or
// empty).
func Start(dir string, opts Options) (*Cluster, error) {
	bin, err := FindBin()
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		if err := ensureSystemUser(); err != nil {
			return nil, err
		}
		c.user = systemUser
	}
	password := randomHex(12)
	if err := c.initdb(password); err != nil {
		return nil, err
	}
	var lastErr error
	for range 5 { // a free port may be taken between the check and the bind
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		if lastErr = c.start(port, opts); lastErr == nil {
			c.URL = (&url.URL{Scheme: "postgres", User: url.UserPassword("storectl", password),
				Host: "127.0.0.1:" + strconv.Itoa(port), Path: "/postgres", RawQuery: "sslmode=disable"}).String()
			return c, nil
		}
	}
	return nil, lastErr
}

func (c *Cluster) initdb(password string) error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return err
	}
	pwfile := filepath.Join(c.Dir, "pw")
	if err := fsutil.WriteFileAtomic(pwfile, []byte(password+"\n"), 0o600); err != nil {
		return err
	}
	if err := c.chown(c.Dir, pwfile); err != nil {
		return err
	}
	defer os.Remove(pwfile)
	return c.run("initdb", "-D", filepath.Join(c.Dir, "data"), "-U", "storectl", "--pwfile", pwfile,
		"--auth=scram-sha-256", "-E", "UTF8", "--no-locale", "--no-sync")
}

func (c *Cluster) start(port int, opts Options) error {
	keepInheritedFilesHere()
	settings := fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -c unix_socket_directories=%s -c max_connections=200", port, c.Dir)
	if !opts.Durable {
		settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
	}
	return c.run("pg_ctl", "-D", filepath.Join(c.Dir, "data"), "-l", filepath.Join(c.Dir, "server.log"),
		"-o", settings, "-w", "-t", "60", "start")
}

// Attach is the cluster Start made in dir, to stop it from another
// process.
func Attach(dir string) (*Cluster, error) {
	bin, err := FindBin()
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		c.user = systemUser
	}
	return c, nil
}

// Stop stops the server fast and removes its directory.
func (c *Cluster) Stop() error {
	err := c.run("pg_ctl", "-D", filepath.Join(c.Dir, "data"), "-m", "fast", "-w", "stop")
	if rmErr := os.RemoveAll(c.Dir); err == nil {
		err = rmErr
	}
	return err
}

// run runs one of the server's programs, as the system user when this
// process is root.
func (c *Cluster) run(name string, args ...string) error {
	path := filepath.Join(c.bin, name)
	cmd := exec.Command(path, args...)
	if c.user != "" {
		cmd = exec.Command("runuser", append([]string{"-u", c.user, "--", path}, args...)...)
	}
	cmd.Dir = c.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %v\n%s%s", name, err, out, c.logTail())
	}
	return nil
}

func (c *Cluster) logTail() string {
	data, err := os.ReadFile(filepath.Join(c.Dir, "server.log"))
	if err != nil {
		return ""
	}
	if len(data) > 2000 {
		data = data[len(data)-2000:]
	}
	return "server log:\n" + string(data)
}

func (c *Cluster) chown(paths ...string) error {
	if c.user == "" {
		return nil
	}
	u, err := user.Lookup(c.user)
	if err != nil {
		return err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	for _, p := range paths {
		if err := os.Chown(p, uid, gid); err != nil {
			return err
		}
	}
	return nil
}

// ensureSystemUser creates the unprivileged user the server runs as.
func ensureSystemUser() error {
	if _, err := user.Lookup(systemUser); err == nil {
		return nil
	}
	out, err := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", systemUser).CombinedOutput()
	if err != nil {
		if _, lookErr := user.Lookup(systemUser); lookErr == nil { // another process made it meanwhile
			return nil
		}
		return fmt.Errorf("create the system user %s to run PostgreSQL: %v: %s", systemUser, err, out)
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// TempDir makes a directory the server's user can enter: under os.TempDir,
// mode 0700, owned by that user when this process is root.
func TempDir(prefix string) (string, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	if os.Geteuid() == 0 {
		if err := ensureSystemUser(); err != nil {
			return "", err
		}
		c := &Cluster{user: systemUser}
		if err := c.chown(dir); err != nil {
			return "", err
		}
	}
	return dir, nil
}
