package safety_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/mcptool/safety"
)

// FuzzProgramArgv checks the argument policy on arbitrary argument lists
// (split on NUL): what it accepts is canonical (checking it again gives the
// same list), and no path it passes on is absolute or climbs with "..".
func FuzzProgramArgv(f *testing.F) {
	for _, s := range []string{
		"-l\x00sales.csv", "-lw\x00--\x00-n", "--files0-from=/etc/passwd", "-r/etc/x\x00+%s",
		"--reference\x00../x", "-Ihours\x00-u", "--\x00--\x00-", "-n5\x00a", "../..\x00/", "-x",
		"--lines=\x00", "a/../../b", "--hide=--\x00-I\x00-", "-\x00-\x00--", "-zc/0",
	} {
		f.Add(s)
	}
	root, err := safety.OpenRoot(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = root.Close() })
	programs := safety.Builtin("date", "ls", "wc", "head", "echo", "uname")
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		for _, p := range programs {
			out, err := p.Argv(root, args)
			if err != nil {
				continue
			}
			again, err := p.Argv(root, out)
			if err != nil {
				t.Fatalf("%s %q: canonical %q refused: %v", p.Name, args, out, err)
			}
			if !slices.Equal(again, out) {
				t.Fatalf("%s %q: canonical %q is not stable: %q", p.Name, args, out, again)
			}
			for _, a := range paths(p, out) {
				if filepath.IsAbs(a) || a == ".." || strings.HasPrefix(a, "../") || strings.Contains(a, "/../") || strings.HasSuffix(a, "/..") {
					t.Fatalf("%s %q: path %q passed on", p.Name, args, a)
				}
			}
		}
	})
}

// paths are the path values and operands of a canonical argument list.
func paths(p safety.Program, argv []string) []string {
	var out []string
	option := func(name string) safety.Option {
		for _, o := range p.Options {
			if slices.Contains(o.Names, name) {
				return o
			}
		}
		return safety.Option{}
	}
	operands := false
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		switch {
		case operands || !strings.HasPrefix(a, "-") || a == "-":
			if p.Operands == safety.Path {
				out = append(out, a)
			}
		case a == "--":
			operands = true
		case strings.HasPrefix(a, "--"):
			if name, v, ok := strings.Cut(a, "="); ok && option(name).Value == safety.Path {
				out = append(out, v)
			}
		default: // canonical short options stand alone, their value apart unless optional
			o := option(a[:2])
			switch {
			case o.Value == safety.None:
			case len(a) > 2:
				if o.Value == safety.Path {
					out = append(out, a[2:])
				}
			case !o.Optional && i+1 < len(argv):
				i++
				if o.Value == safety.Path {
					out = append(out, argv[i])
				}
			}
		}
	}
	return out
}
