package mcpreflect

import "reflect"

// Shorthands for the tests (not part of the API).

func PlanFor(t reflect.Type, opts Options) (*Plan, error)     { return defaultCache.Plan(t, opts) }
func OutputFor(t reflect.Type, opts Options) (*Output, error) { return defaultCache.Output(t, opts) }

// DecodeValue decodes data into a new value of p.Type and returns a pointer
// to it.
func (p *Plan) DecodeValue(data []byte) (reflect.Value, error) {
	v := reflect.New(p.Type)
	return v, p.Decode(data, v.Interface(), 0)
}
