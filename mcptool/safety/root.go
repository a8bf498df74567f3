package safety

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/mcpgen/mcpgen/mcptool"
)

// ErrOutsideRoot is wrapped by errors for paths that leave a [Root].
var ErrOutsideRoot = errors.New("path is outside the allowed directory")

// Root is a directory that tools may read and write below, and nowhere else.
// It is safe for concurrent use.
type Root struct {
	root *os.Root
	dir  string
}

// OpenRoot opens dir as a Root, creating it (0o750) if it does not exist.
func OpenRoot(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o750); err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	return &Root{root: r, dir: abs}, nil
}

// Dir returns the root's absolute path.
func (r *Root) Dir() string { return r.dir }

// Close releases the root.
func (r *Root) Close() error { return r.root.Close() }

// Clean checks a path given by a client and returns it relative to the root.
// Absolute paths, paths with ".." that leave the root, and paths with NUL
// bytes are refused with an error the model can read. Symlinks that lead
// out are refused when the path is opened.
func (r *Root) Clean(name string) (string, error) {
	if name == "" {
		return "", mcptool.UserError(errors.New("the path is empty"))
	}
	if strings.ContainsRune(name, 0) {
		return "", mcptool.UserError(fmt.Errorf("%w: %q contains a NUL byte", ErrOutsideRoot, name))
	}
	clean := filepath.Clean(name)
	// A leading backslash is refused as a Windows-style absolute path the
	// model meant; judged on the cleaned path, so that "./\x" is refused as
	// "\x" is (what Clean accepts, it accepts again).
	if filepath.IsAbs(name) || strings.HasPrefix(clean, `\`) {
		return "", mcptool.UserError(fmt.Errorf("%w: %q is absolute; give a path relative to the data directory", ErrOutsideRoot, name))
	}
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", mcptool.UserError(fmt.Errorf("%w: %q leaves the data directory", ErrOutsideRoot, name))
	}
	return clean, nil
}

func (r *Root) wrap(name string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
		return mcptool.UserError(fmt.Errorf("%w: %q leads out of the data directory (symlink)", ErrOutsideRoot, name))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return mcptool.UserError(fmt.Errorf("%q does not exist", name))
	}
	switch {
	case errors.Is(err, syscall.ENOTDIR):
		return mcptool.UserError(fmt.Errorf("%q: a part of the path is a file, not a directory", name))
	case errors.Is(err, fs.ErrExist):
		return mcptool.UserError(fmt.Errorf("%q already exists", name))
	case errors.Is(err, syscall.EISDIR):
		return mcptool.UserError(fmt.Errorf("%q is a directory, not a file", name))
	case errors.Is(err, syscall.ENAMETOOLONG):
		return mcptool.UserError(fmt.Errorf("the path %.40q… is too long", name))
	case errors.Is(err, syscall.ELOOP):
		return mcptool.UserError(fmt.Errorf("%q is a symlink loop", name))
	}
	return err
}

// Open opens a file below the root for reading. Symlinks are followed while
// they stay below the root; a symlink with an absolute target is refused
// (os.Root's rule), as is one whose target leaves the root.
func (r *Root) Open(name string) (*os.File, error) {
	clean, err := r.Clean(name)
	if err != nil {
		return nil, err
	}
	f, err := r.root.Open(clean)
	return f, r.wrap(name, err)
}

// ReadFile reads a file below the root, at most limit bytes (0: no limit).
func (r *Root) ReadFile(name string, limit int64) ([]byte, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rd io.Reader = f
	if limit > 0 {
		rd = io.LimitReader(f, limit+1)
	}
	b, err := io.ReadAll(rd)
	if err != nil {
		return nil, r.wrap(name, err)
	}
	if limit > 0 && int64(len(b)) > limit {
		return nil, mcptool.UserError(fmt.Errorf("%q is larger than %d bytes", name, limit))
	}
	return b, nil
}

// WriteFile writes a file below the root, creating its directories.
func (r *Root) WriteFile(name string, data []byte) error {
	clean, err := r.Clean(name)
	if err != nil {
		return err
	}
	if dir := filepath.Dir(clean); dir != "." {
		if err := r.root.MkdirAll(dir, 0o750); err != nil {
			return r.wrap(name, err)
		}
	}
	return r.wrap(name, r.root.WriteFile(clean, data, 0o640))
}

// WriteStream writes a file below the root from write, which streams the
// content to w (buffered), creating the file's directories; for content too
// large to hold in memory. The content goes to a temporary file beside the
// target, which replaces it only when write returns nil: a reader never sees
// half a file, and a failed or cancelled write leaves the old one. It
// returns the bytes written.
func (r *Root) WriteStream(name string, write func(w io.Writer) error) (int64, error) {
	clean, err := r.Clean(name)
	if err != nil {
		return 0, err
	}
	if clean == "." {
		return 0, mcptool.UserError(fmt.Errorf("%q is the data directory itself, not a file", name))
	}
	dir := filepath.Dir(clean)
	if dir != "." {
		if err := r.root.MkdirAll(dir, 0o750); err != nil {
			return 0, r.wrap(name, err)
		}
	}
	if fi, err := r.root.Lstat(clean); err == nil && fi.IsDir() {
		return 0, mcptool.UserError(fmt.Errorf("%q is a directory, not a file", name))
	}
	var tmp string
	var f *os.File
	for range 10 {
		tmp = filepath.Join(dir, "."+filepath.Base(clean)+".tmp-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err = r.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return 0, r.wrap(name, err)
	}
	cw := &countingWriter{w: f}
	bw := bufio.NewWriterSize(cw, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.wrap(name, r.root.Rename(tmp, clean))
	}
	if err != nil {
		_ = r.root.Remove(tmp)
		return 0, err
	}
	return cw.n, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Stat describes a file below the root, following symlinks that stay inside.
func (r *Root) Stat(name string) (fs.FileInfo, error) {
	clean, err := r.Clean(name)
	if err != nil {
		return nil, err
	}
	fi, err := r.root.Stat(clean)
	return fi, r.wrap(name, err)
}

// Remove removes a file or empty directory below the root. The root itself
// cannot be removed.
func (r *Root) Remove(name string) error {
	clean, err := r.Clean(name)
	if err != nil {
		return err
	}
	if clean == "." {
		return mcptool.UserError(fmt.Errorf("%w: refusing to remove the data directory itself", ErrOutsideRoot))
	}
	return r.wrap(name, r.root.Remove(clean))
}

// FS returns the root as an fs.FS, for fs.WalkDir and friends.
func (r *Root) FS() fs.FS { return r.root.FS() }

// resolve checks a path a client gives a program: it must name a place
// below the root when the operating system resolves it, symlinks followed
// and ".." applied (os.Root walks it), and is returned cleaned, for the
// program to open. A path that does not exist yet passes (the program says
// so); one that leads out, through ".." or a symlink, does not.
func (r *Root) resolve(name string) (string, error) {
	clean, err := r.Clean(name)
	if err != nil {
		return "", err
	}
	_, err = r.root.Stat(clean)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return clean, nil
	}
	if err = r.wrap(name, err); !mcptool.IsUserError(err) {
		err = mcptool.UserError(fmt.Errorf("%q cannot be used: %w", name, err))
	}
	return "", err
}
