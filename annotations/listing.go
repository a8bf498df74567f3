package annotations

import "fmt"

// Listing is where a tool is found when its registry lists only a few
// tools and lets the model search for the rest (discovery): its group, and
// whether it is always listed.
type Listing struct {
	// Group names the tools' family, for search and for the group list
	// (group=billing): 1 to 128 characters of A-Z, a-z, 0-9, '_', '-', '.'
	// and '/'. Default none (the registry's default group, if it has one).
	Group string
	// Eager lists the tool even in discovery mode (eager); default false.
	Eager bool
}

// set records one listing item; ok is false for a key that is not one.
func (l *Listing) set(it Item) (ok bool, err error) {
	switch it.Key {
	case "group":
		if !it.HasValue || it.Value == "" {
			return true, fmt.Errorf("group needs a value (group=billing)")
		}
		if err := CheckGroup(it.Value); err != nil {
			return true, err
		}
		l.Group = it.Value
		return true, nil
	case "eager":
		v, err := boolValue(it)
		if err != nil {
			return true, fmt.Errorf("eager takes no value, or true/false")
		}
		l.Eager = v
		return true, nil
	}
	return false, nil
}

// Merge returns l with the group o gives, and eager when o sets it.
func (l Listing) Merge(o Listing) Listing {
	if o.Group != "" {
		l.Group = o.Group
	}
	if o.Eager {
		l.Eager = true
	}
	return l
}

// CheckGroup reports whether g is a group name: 1 to 128 characters of A-Z,
// a-z, 0-9, '_', '-', '.' and '/' (a protobuf service's full name is one).
func CheckGroup(g string) error {
	ok := len(g) >= 1 && len(g) <= 128
	for i := 0; ok && i < len(g); i++ {
		c := g[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/'
	}
	if !ok {
		return fmt.Errorf("group %q: a group is 1 to 128 characters of A-Z, a-z, 0-9, '_', '-', '.' and '/'", g)
	}
	return nil
}
