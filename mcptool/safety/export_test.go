package safety

// Argv is Program.argv, for the fuzz test: the canonical argument list, or
// why args are refused.
func (p Program) Argv(root *Root, args []string) ([]string, error) { return p.argv(root, args) }
