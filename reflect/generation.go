package mcpreflect

import (
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"sort"
	"sync"
)

// SchemaGeneration numbers the schemas this package publishes. Code that
// cmd/mcpgen generates records the generation it was made with
// ([GeneratedType].Generation), and registration uses generated plans and
// schemas of this generation only: a program never publishes what an
// older mcpgen derived. Generated data of another generation is reported
// (a warning, once per package, to slog's default logger, and by
// [CheckGenerated]) and the type is derived by reflection instead.
//
// Bump it in every change after which the same Go type publishes a
// different input or output schema (a keyword added, dropped or
// rewritten, a type rendered another way, a description drawn from
// elsewhere), and in every change to what generated data means
// ([GeneratedType], [GeneratedStruct], [GeneratedField]); then regenerate
// this repository's generated files (go generate) and say in the
// CHANGELOG that users regenerate theirs.
const SchemaGeneration = 1

// warned holds the packages whose generated data of another generation
// has been reported.
var warned sync.Map // package path → true

// warnGeneration reports once per package that t's generated data is of
// another schema generation.
func warnGeneration(t reflect.Type, generation int) {
	pkg := t.PkgPath()
	if _, loaded := warned.LoadOrStore(pkg, true); loaded {
		return
	}
	slog.Warn("mcpgen: generated code is from another mcpgen: its plans are not used, the schemas are derived by reflection; run go generate",
		"package", pkg, "generation", generation, "want", SchemaGeneration)
}

// CheckGenerated reports the generated data registered in this program
// (by the init functions of mcpgen_gen.go files) that is not current:
// made by an mcpgen of another [SchemaGeneration], or for a type that has
// changed since. Such data is not used; go generate brings it up to date.
// It returns nil when all of it is current, else an error naming every
// stale type.
func CheckGenerated() error {
	var errs []error
	genTypes.Range(func(k, v any) bool {
		t, e := k.(reflect.Type), v.(*genEntry)
		switch {
		case e.generation != SchemaGeneration:
			errs = append(errs, fmt.Errorf("%s: generated for schema generation %d, this mcpgen publishes %d", t, e.generation, SchemaGeneration))
		case e.fingerprint != fingerprint(t):
			errs = append(errs, fmt.Errorf("%s: the type has changed since its code was generated", t))
		}
		return true
	})
	if errs == nil {
		return nil
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return fmt.Errorf("mcpgen: generated code is not current (run go generate):\n%w", errors.Join(errs...))
}
