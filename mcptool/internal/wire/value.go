package wire

// value scans the value at s.i (no space before it), at nesting depth d,
// counting it and all it holds. Nesting is followed with a stack of its
// own, not by recursion, so a deep body costs no goroutine stack.
func (s *scanner) value(d int) error {
	if s.i == len(s.b) {
		return s.errf("unexpected end of input")
	}
	c := s.b[s.i]
	if c != '{' && c != '[' {
		if err := s.count(d, false); err != nil {
			return err
		}
		return s.scalar()
	}
	// open[k] is the closing byte of the k-th container open.
	var buf [32]byte
	open := buf[:0]
	for {
		// At a value.
		c := s.b[s.i]
		if c == '{' || c == '[' {
			if err := s.count(d+len(open), true); err != nil {
				return err
			}
			s.i++
			s.space()
			if s.i == len(s.b) {
				return s.errf("unexpected end of input")
			}
			end := byte(']')
			if c == '{' {
				end = '}'
			}
			if s.b[s.i] == end {
				s.i++
			} else {
				open = append(open, end)
				if end == '}' {
					if _, _, err := s.key(); err != nil {
						return err
					}
				}
				continue
			}
		} else {
			if err := s.count(d+len(open), false); err != nil {
				return err
			}
			if err := s.scalar(); err != nil {
				return err
			}
		}
		// After a value: the next member or element, or the ends of
		// containers.
		for {
			if len(open) == 0 {
				return nil
			}
			end := open[len(open)-1]
			done, err := s.next(end)
			if err != nil {
				return err
			}
			if !done {
				s.space()
				if s.i == len(s.b) {
					return s.errf("unexpected end of input")
				}
				if end == '}' {
					if _, _, err := s.key(); err != nil {
						return err
					}
				}
				break
			}
			open = open[:len(open)-1]
		}
	}
}

// key scans an object's key and its colon at s.i, leaving s.i at the
// member's value. It returns the key's bytes as in the body (between the
// quotes), and whether they are its text (plain: see str).
func (s *scanner) key() (key []byte, plain bool, err error) {
	if s.b[s.i] != '"' {
		return nil, false, s.errf("invalid character %s looking for beginning of object key string", quoteChar(s.b[s.i]))
	}
	start := s.i
	if plain, err = s.str(); err != nil {
		return nil, false, err
	}
	s.cost.Keys++
	key = s.b[start+1 : s.i-1]
	s.space()
	if s.i == len(s.b) {
		return nil, false, s.errf("unexpected end of input")
	}
	if s.b[s.i] != ':' {
		return nil, false, s.errf("invalid character %s after object key", quoteChar(s.b[s.i]))
	}
	s.i++
	s.space()
	if s.i == len(s.b) {
		return nil, false, s.errf("unexpected end of input")
	}
	return key, plain, nil
}

// scalar scans the string, number or literal at s.i.
func (s *scanner) scalar() error {
	switch c := s.b[s.i]; {
	case c == '"':
		_, err := s.str()
		return err
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	default:
		return s.errf("invalid character %s looking for beginning of value", quoteChar(c))
	}
}

func (s *scanner) literal(lit string) error {
	for j := 0; j < len(lit); j++ {
		if s.i == len(s.b) {
			return s.errf("unexpected end of input")
		}
		if s.b[s.i] != lit[j] {
			return s.errf("invalid character %s in literal %s (expecting '%c')", quoteChar(s.b[s.i]), lit, lit[j])
		}
		s.i++
	}
	return nil
}

// str scans the string at s.i (its opening quote), and reports whether it
// is plain: no escape and no byte beyond ASCII, so its bytes are its text.
func (s *scanner) str() (plain bool, err error) {
	plain = true
	s.i++
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return plain, nil
		case c == '\\':
			plain = false
			s.i++
			if s.i == len(s.b) {
				return false, s.errf("unexpected end of input")
			}
			switch s.b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				s.i++
				for range 4 {
					if s.i == len(s.b) {
						return false, s.errf("unexpected end of input")
					}
					if !isHex(s.b[s.i]) {
						return false, s.errf("invalid character %s in \\u hexadecimal character escape", quoteChar(s.b[s.i]))
					}
					s.i++
				}
			default:
				return false, s.errf("invalid character %s in string escape code", quoteChar(s.b[s.i]))
			}
		case c < 0x20:
			return false, s.errf("invalid character %s in string literal", quoteChar(c))
		default:
			if c >= 0x80 {
				plain = false
			}
			s.i++
		}
	}
	return false, s.errf("unexpected end of input")
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number scans the number at s.i: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() error {
	if s.b[s.i] == '-' {
		s.i++
	}
	if s.i == len(s.b) {
		return s.errf("unexpected end of input")
	}
	switch c := s.b[s.i]; {
	case c == '0':
		s.i++
	case isDigit(c):
		for s.i < len(s.b) && isDigit(s.b[s.i]) {
			s.i++
		}
	default:
		return s.errf("invalid character %s in numeric literal", quoteChar(c))
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if err := s.digits(); err != nil {
			return err
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if err := s.digits(); err != nil {
			return err
		}
	}
	return nil
}

// digits scans one digit or more.
func (s *scanner) digits() error {
	if s.i == len(s.b) {
		return s.errf("unexpected end of input")
	}
	if !isDigit(s.b[s.i]) {
		return s.errf("invalid character %s in numeric literal", quoteChar(s.b[s.i]))
	}
	for s.i < len(s.b) && isDigit(s.b[s.i]) {
		s.i++
	}
	return nil
}
