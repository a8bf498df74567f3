package mcpreflect_test

import (
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"testing"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

type plainArgs struct {
	Query string            `json:"query" jsonschema:"minLength=2"`
	Limit int               `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100"`
	Tags  []string          `json:"tags,omitempty"`
	Where map[string]string `json:"where,omitempty"`
	Page  struct {
		Size float64 `json:"size"`
	} `json:"page"`
}

type plainResult struct {
	Hits []string `json:"hits"`
}

type residualArgs struct {
	Country string `json:"country" validate:"iso3166_1_alpha2"`
}

// validatorProbe is set in the process TestValidatorBuiltOnlyForRules
// starts: a fresh process, so that no other test has built the validator.
const validatorProbe = "MCPGEN_TEST_VALIDATOR_PROBE"

// TestValidatorBuiltOnlyForRules: go-playground's validator.New (its rule
// map, tag cache and struct cache: about 14 KB and 0.3 ms of a cold
// process) runs when a tag asks for a rule JSON Schema cannot say, at that
// tool's registration, and never for a tool without one: registering,
// calling and answering a plain tool, and package init, leave it unbuilt.
// (The validator package's own init, its code tables, is paid by every
// program linking it; bench/README.md measures it.) Run in a process of its
// own, read from the allocation profile, every allocation recorded.
func TestValidatorBuiltOnlyForRules(t *testing.T) {
	if os.Getenv(validatorProbe) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestValidatorBuiltOnlyForRules$", "-test.count=1")
		// Every allocation recorded from the start, package init's too.
		cmd.Env = append(os.Environ(), validatorProbe+"=1", "GODEBUG=memprofilerate=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	cache := &mcpreflect.Cache{}
	plan, err := cache.Plan(reflect.TypeFor[plainArgs](), mcpreflect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var args plainArgs
	if err := plan.Decode([]byte(`{"query":"go","limit":3,"tags":["a"],"where":{"k":"v"},"page":{"size":1.5}}`), &args, 0); err != nil {
		t.Fatal(err)
	}
	if err := plan.Decode([]byte(`{"query":"g","limit":0,"page":{}}`), &args, 0); err == nil {
		t.Fatal("bad arguments decoded")
	}
	out, err := cache.Output(reflect.TypeFor[plainResult](), mcpreflect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.Result(plainResult{Hits: []string{"x"}}); err != nil {
		t.Fatal(err)
	}
	if validatorBuilt() {
		t.Fatal("a tool without validate rules built go-playground's validator")
	}
	if _, err := cache.Plan(reflect.TypeFor[residualArgs](), mcpreflect.Options{}); err != nil {
		t.Fatal(err)
	}
	if !validatorBuilt() {
		t.Fatal("the probe does not see the validator a validate rule builds")
	}
}

// validatorBuilt reports whether the allocation profile holds an
// allocation made inside validator.New.
func validatorBuilt() bool {
	for range 3 { // the profile is published a cycle or two late
		runtime.GC()
	}
	n, _ := runtime.MemProfile(nil, true)
	records := make([]runtime.MemProfileRecord, n+64)
	n, _ = runtime.MemProfile(records, true)
	for _, r := range records[:n] {
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			if strings.HasPrefix(f.Function, "github.com/go-playground/validator/v10.New") {
				return true
			}
			if !more {
				break
			}
		}
	}
	return false
}
