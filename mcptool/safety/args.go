package safety

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool"
)

// ErrArgument is wrapped by errors for arguments a [Program] does not
// accept: an option off its list, a missing or unexpected option value, an
// operand where it takes none.
var ErrArgument = errors.New("argument not accepted")

// Arg says what an option's value or a program's operands are.
type Arg int

const (
	// None: an option without a value (a flag), or a program that takes no
	// operands.
	None Arg = iota
	// Text: text the program does not open as a file, e.g. a count or a
	// format.
	Text
	// Path: a file or directory below the runner's [Root]. It is resolved in
	// the root as the operating system would (symlinks followed, ".."
	// applied) and refused when it leads out; the program gets the cleaned
	// relative path.
	Path
)

// Option is one option a [Program] accepts.
type Option struct {
	// Names are the option's spellings, e.g. {"-l", "--lines"}: short ones
	// ("-l") may be bundled ("-lw") and take their value attached ("-n5") or
	// as the next argument; long ones ("--lines") take it after "=" or as
	// the next argument. Only exact names are accepted: the abbreviations
	// GNU programs allow ("--li") are not.
	Names []string
	// Value is what the option's value is; None for a flag.
	Value Arg
	// Optional: the value may be left out, and is then only given attached
	// ("--color=never", "-Ihours"), as getopt reads optional values.
	Optional bool
}

// Program is the argument policy of a program a [Runner] may run: the
// options it accepts and what its operands are. Anything else is refused
// before the program starts, so the policy is an allowlist: an option
// the program has but the policy does not name (wc's --files0-from, date's
// --file) cannot be used.
//
// The runner passes the program a canonical argument list: each option
// alone, its value separate ("-n", "5") or after "=" for long and optional
// ones, then "--" when an operand begins with "-", then the operands, with
// paths cleaned (and "./" before one that begins with "-"). What the program
// parses is what the policy checked.
type Program struct {
	// Name is the program's name, looked up in PATH when the runner is
	// made. No slashes.
	Name string
	// Options are the options the program accepts.
	Options []Option
	// Operands is what the program's arguments other than options are;
	// None refuses them.
	Operands Arg
	// MaxOperands caps the number of operands; 0 is no cap.
	MaxOperands int
	// OperandName names the operands in [Program.String]; default PATH or
	// TEXT.
	OperandName string
	// Check, when set, vets each Text operand; its error is shown to the
	// model.
	Check func(operand string) error

	unknown bool // made by Builtin for a name it has no policy for
}

// String is the program's usage line, for a tool description, e.g.
// "wc [-c|--bytes] [-l|--lines] [--] [PATH...]".
func (p Program) String() string {
	var b strings.Builder
	b.WriteString(p.Name)
	for _, o := range p.Options {
		b.WriteString(" [")
		for i, n := range o.Names {
			if i > 0 {
				b.WriteByte('|')
			}
			b.WriteString(n)
			if o.Value == None {
				continue
			}
			v := o.Value.name()
			switch {
			case o.Optional && strings.HasPrefix(n, "--"):
				b.WriteString("[=" + v + "]")
			case o.Optional:
				b.WriteString("[" + v + "]")
			case strings.HasPrefix(n, "--"):
				b.WriteString("=" + v)
			default:
				b.WriteString(" " + v)
			}
		}
		b.WriteByte(']')
	}
	if p.Operands != None {
		name := p.OperandName
		if name == "" {
			name = p.Operands.name()
		}
		if p.MaxOperands == 1 {
			fmt.Fprintf(&b, " [%s]", name)
		} else {
			fmt.Fprintf(&b, " [%s...]", name)
		}
	}
	return b.String()
}

func (a Arg) name() string {
	switch a {
	case Path:
		return "PATH"
	case Text:
		return "TEXT"
	}
	return ""
}

// option finds the option spelled name.
func (p *Program) option(name string) (*Option, bool) {
	for i := range p.Options {
		if slices.Contains(p.Options[i].Names, name) {
			return &p.Options[i], true
		}
	}
	return nil, false
}

// accepted lists the option names, for refusals.
func (p *Program) accepted() string {
	var names []string
	for _, o := range p.Options {
		names = append(names, o.Names...)
	}
	if len(names) == 0 {
		return p.Name + " takes no options"
	}
	return p.Name + " accepts " + strings.Join(names, ", ")
}

// argv checks args against the policy and returns the canonical argument
// list, with every path resolved in root. Errors are for the model.
func (p *Program) argv(root *Root, args []string) ([]string, error) {
	var opts, operands []string
	refuse := func(format string, a ...any) error {
		return mcptool.UserError(fmt.Errorf("%s: %w: %s", p.Name, ErrArgument, fmt.Sprintf(format, a...)))
	}
	value := func(o *Option, name, v string) (string, error) {
		if o.Value != Path {
			return v, nil
		}
		clean, err := root.resolve(v)
		if err != nil {
			return "", fmt.Errorf("%s: option %s: %w", p.Name, name, err)
		}
		return clean, nil
	}
	dashdash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case dashdash || a == "-" || !strings.HasPrefix(a, "-"):
			operands = append(operands, a)
		case a == "--":
			dashdash = true
		case strings.HasPrefix(a, "--"):
			name, v, hasValue := strings.Cut(a, "=")
			o, ok := p.option(name)
			if !ok {
				return nil, refuse("option %q is not accepted (%s)", name, p.accepted())
			}
			switch {
			case o.Value == None && hasValue:
				return nil, refuse("option %s takes no value", name)
			case o.Value == None:
				opts = append(opts, name)
				continue
			case !hasValue && o.Optional:
				opts = append(opts, name)
				continue
			case !hasValue:
				if i+1 == len(args) {
					return nil, refuse("option %s needs a value", name)
				}
				i++
				v = args[i]
			}
			v, err := value(o, name, v)
			if err != nil {
				return nil, err
			}
			opts = append(opts, name+"="+v)
		default: // short options, maybe bundled: -lw, -n5, -n 5
			rest := a[1:]
			for rest != "" {
				c := rest[:1]
				rest = rest[1:]
				name := "-" + c
				o, ok := p.option(name)
				if !ok {
					return nil, refuse("option %q is not accepted (%s)", name, p.accepted())
				}
				if o.Value == None {
					opts = append(opts, name)
					continue
				}
				v := rest
				rest = ""
				switch {
				case v == "" && o.Optional:
					opts = append(opts, name)
					continue
				case v == "":
					if i+1 == len(args) {
						return nil, refuse("option %s needs a value", name)
					}
					i++
					v = args[i]
				}
				v, err := value(o, name, v)
				if err != nil {
					return nil, err
				}
				if o.Optional {
					opts = append(opts, name+v)
				} else {
					opts = append(opts, name, v)
				}
			}
		}
	}
	switch {
	case p.Operands == None && len(operands) > 0:
		return nil, refuse("%q: %s takes no operands, only options", operands[0], p.Name)
	case p.MaxOperands > 0 && len(operands) > p.MaxOperands:
		return nil, refuse("%d operands given, at most %d accepted", len(operands), p.MaxOperands)
	}
	needDashes := false
	for i, op := range operands {
		if p.Operands == Path {
			clean, err := root.resolve(op)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p.Name, err)
			}
			if strings.HasPrefix(clean, "-") {
				clean = "./" + clean
			}
			operands[i] = clean
		} else if p.Check != nil {
			if err := p.Check(op); err != nil {
				return nil, refuse("%q: %v", op, err)
			}
		}
		needDashes = needDashes || strings.HasPrefix(operands[i], "-")
	}
	if needDashes {
		opts = append(opts, "--")
	}
	return append(opts, operands...), nil
}

// validate checks the policy itself, when the runner is made.
func (p *Program) validate() error {
	seen := map[string]bool{}
	for _, o := range p.Options {
		if len(o.Names) == 0 {
			return fmt.Errorf("safety: program %q: an option without names", p.Name)
		}
		for _, n := range o.Names {
			short := len(n) == 2 && n[0] == '-' && n[1] != '-'
			long := len(n) > 2 && strings.HasPrefix(n, "--") && !strings.ContainsAny(n, "= ")
			if !short && !long {
				return fmt.Errorf("safety: program %q: option name %q: want -x or --name", p.Name, n)
			}
			if seen[n] {
				return fmt.Errorf("safety: program %q: option %s listed twice", p.Name, n)
			}
			seen[n] = true
		}
		if o.Optional && o.Value == None {
			return fmt.Errorf("safety: program %q: option %s: Optional without a Value", p.Name, o.Names[0])
		}
	}
	return nil
}
