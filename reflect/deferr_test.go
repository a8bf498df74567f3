package mcpreflect

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/invopop/jsonschema"
)

// Every way a Go type can fail registration, each asserting that the
// *DefinitionError names the Go type, the field and the tag.

type errJSONOption struct {
	//lint:ignore SA5008 the misspelt option is what the test checks
	Name string `json:"name,omitempy"`
}
type errJSONString struct {
	N int `json:"n,string"`
}
type errSchemaKey struct {
	S string `json:"s" jsonschema:"maxLenght=3"`
}
type errSchemaKeyFar struct {
	S string `json:"s" jsonschema:"frobnicate"`
}
type errSchemaEmpty struct {
	S string `json:"s" jsonschema:"title=x,"`
}
type errSchemaOneOf struct {
	S string `json:"s" jsonschema:"oneof_required=a"`
}
type errSchemaNullable struct {
	S *string `json:"s,omitempty" jsonschema:"nullable"`
}
type errSchemaRequiredValue struct {
	S string `json:"s,omitempty" jsonschema:"required=true"`
}
type errSchemaNoValue struct {
	S string `json:"s" jsonschema:"title="`
}
type errSchemaTypeOnInt struct {
	N int `json:"n" jsonschema:"type=string"`
}
type errSchemaTypeBogus struct {
	V any `json:"v" jsonschema:"type=thing"`
}
type errSchemaBool struct {
	S string `json:"s" jsonschema:"deprecated=maybe"`
}
type errSchemaEnumInt struct {
	N int `json:"n" jsonschema:"enum=abc"`
}
type errSchemaEnumFrac struct {
	N int `json:"n" jsonschema:"enum=1.5"`
}
type errSchemaEnumBool struct {
	B bool `json:"b" jsonschema:"enum=yes"`
}
type errSchemaConstTwice struct {
	S string `json:"s" jsonschema:"const=a,const=b"`
}
type errSchemaDefaultTwice struct {
	S string `json:"s,omitempty" jsonschema:"default=a,default=b"`
}
type errSchemaMinOnString struct {
	S string `json:"s" jsonschema:"minimum=1"`
}
type errSchemaMinLenOnInt struct {
	N int `json:"n" jsonschema:"minLength=1"`
}
type errSchemaMinItemsOnString struct {
	S string `json:"s" jsonschema:"minItems=1"`
}
type errSchemaMinPropsOnStruct struct {
	P ZooPoint `json:"p" jsonschema:"minProperties=1"`
}
type errSchemaNotNumber struct {
	N int `json:"n" jsonschema:"minimum=abc"`
}
type errSchemaMultipleOf struct {
	F float64 `json:"f" jsonschema:"multipleOf=0"`
}
type errSchemaCount struct {
	S string `json:"s" jsonschema:"maxLength=-1"`
}
type errSchemaPattern struct {
	S string `json:"s" jsonschema:"pattern=[a-"`
}
type errSchemaFormat struct {
	S string `json:"s" jsonschema:"format=phone"`
}
type errSchemaUnique struct {
	L []int `json:"l" jsonschema:"uniqueItems=false"`
}
type errExtrasNotKV struct {
	S string `json:"s" jsonschema_extras:"x-a"`
}
type errExtrasNoX struct {
	S string `json:"s" jsonschema_extras:"order=1"`
}
type errHeaderKind struct {
	L []string `json:"l" jsonschema_extras:"x-mcp-header=Region"`
}
type errHeaderName struct {
	S string `json:"s" jsonschema_extras:"x-mcp-header=Bad Name"`
}
type errHeaderEmpty struct {
	S string `json:"s" jsonschema_extras:"x-mcp-header="`
}
type errInterface struct {
	V any `json:"v"`
}

type errUnmarshaler struct{ v string }

func (u *errUnmarshaler) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &u.v) }

type errUnmarshalerField struct {
	U errUnmarshaler `json:"u"`
}
type errMapKey struct {
	M map[float64]int `json:"m"`
}
type errChan struct {
	C chan int `json:"c"`
}

type errComplex struct {
	C complex128 `json:"c"`
}
type errFunc struct {
	F func() `json:"f"`
}

type errNilSchemaType string

func (errNilSchemaType) JSONSchema() *jsonschema.Schema { return nil }

type errNilSchema struct {
	X errNilSchemaType `json:"x"`
}

type errBoolSchemaType []string

func (errBoolSchemaType) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", Items: jsonschema.TrueSchema}
}

type errBoolSchema struct {
	X errBoolSchemaType `json:"x"`
}
type errDefaultRequired struct {
	S string `json:"s" jsonschema:"default=x"`
}
type errDefaultBreaks struct {
	N int `json:"n,omitempty" jsonschema:"default=500,maximum=100"`
}
type errDefaultBreaksOneOf struct {
	Mode string `json:"mode,omitempty" jsonschema:"default=medium" validate:"omitempty,oneof=fast slow"`
}

// errDupA and errDupB both promote the JSON name "ID". (Untagged, because
// go vet rejects a repeated json tag; errDupTags is built at run time for the
// same reason.)
type errDupA struct {
	ID string
}
type errDupB struct {
	ID int
}
type errDupEmbedded struct {
	errDupA
	errDupB
}

var errDupTags = reflect.StructOf([]reflect.StructField{
	{Name: "A", Type: tf[string](), Tag: `json:"x"`},
	{Name: "B", Type: tf[string](), Tag: `json:"x"`},
})

type errValidateOmitempty struct {
	S string `json:"s" validate:"omitempty,max=3"`
}
type errRequiredMinLength struct {
	S string `json:"s" jsonschema:"minLength=0" validate:"required"`
}
type errRequiredMaxItems struct {
	L []string `json:"l" validate:"required,max=0"`
}
type errContradiction struct {
	N int `json:"n" jsonschema:"maximum=5" validate:"max=10"`
}
type errContradictionEnum struct {
	S string `json:"s" jsonschema:"enum=a,enum=b" validate:"oneof=a c"`
}
type errRequiredIf struct {
	Kind  string `json:"kind"`
	Other string `json:"other,omitempty" validate:"required_if=Kind x"`
}
type errUnknownRule struct {
	S string `json:"s" validate:"bogus"`
}
type errMisspeltRule struct {
	S string `json:"s" validate:"required,mni=3"`
}
type errValidateEmpty struct {
	S string `json:"s" validate:"min=1,,max=2"`
}
type errValidateKeysFirst struct {
	M map[string]int `json:"m" validate:"keys,min=1,endkeys"`
}
type errValidateEndkeys struct {
	M map[string]int `json:"m" validate:"dive,endkeys"`
}
type errValidateOpenKeys struct {
	M map[string]int `json:"m" validate:"dive,keys,min=1"`
}
type errValidateDiveInKeys struct {
	M map[string]int `json:"m" validate:"dive,keys,dive,endkeys"`
}
type errDiveOnInt struct {
	N int `json:"n" validate:"dive,min=1"`
}
type errDiveOnBytes struct {
	B []byte `json:"b" validate:"dive,max=3"`
}
type errKeysRule struct {
	M map[string]int `json:"m" validate:"dive,keys,startswith=a,endkeys"`
}
type errCross struct {
	A string `json:"a" validate:"eqfield=Nope"`
}
type errMetaSyntax struct {
	_ struct{} `mcp:"title='x"`
}
type errMetaUnknown struct {
	_ struct{} `mcp:"readonly"`
}
type errMetaGroup struct {
	_ struct{} `mcp:"group='a b',eager=often"`
}
type errMetaMeaningless struct {
	_ struct{} `mcp:"readOnly,destructive"`
}
type errMetaIdempotent struct {
	_ struct{} `mcp:"readOnly,idempotent"`
}
type errMetaValue struct {
	_ struct{} `mcp:"readOnly=maybe"`
}
type errMetaTitle struct {
	_ struct{} `mcp:"title"`
}
type errMetaTwice struct {
	_ struct{} `mcp:"readOnly,readOnly"`
}
type errMetaField struct {
	S string `json:"s" mcp:"readOnly"`
}
type errMetaInner struct {
	_ struct{} `mcp:"readOnly"`
	X int      `json:"x"`
}
type errMetaEmbedded struct {
	errMetaInner
}
type errMetaTwo struct {
	_ struct{} `mcp:"readOnly"`
	_ struct{} `mcp:"idempotent"`
}
type errNestedInner struct {
	Bad string `json:"bad" jsonschema:"minimum=1"`
}
type errNested struct {
	Inner errNestedInner `json:"inner"`
}
type errEmbeddedBadBase struct {
	//lint:ignore SA5008 the misspelt option is what the test checks
	Bad string `json:"bad,omitempy"`
}
type errEmbeddedBad struct {
	errEmbeddedBadBase
}

type defErrCase struct {
	name  string
	typ   reflect.Type
	field string // DefinitionError.Field
	tag   string // DefinitionError.Tag
	msg   string // a substring of DefinitionError.Msg
	exact string // the whole Error() text, when pinned
	is    error  // errors.Is target, when set
}

var defErrCases = []defErrCase{
	{name: "json unknown option", typ: tf[errJSONOption](), field: "Name", tag: `json:"name,omitempy"`,
		exact: `mcpreflect.errJSONOption.Name: tag json:"name,omitempy": unknown option "omitempy" (did you mean "omitempty"?)`},
	{name: "json string option", typ: tf[errJSONString](), field: "N", tag: `json:"n,string"`,
		msg: "the ,string option is not supported: use a string field", is: errUnsupported},
	{name: "jsonschema unknown key", typ: tf[errSchemaKey](), field: "S", tag: `jsonschema:"maxLenght=3"`,
		exact: `mcpreflect.errSchemaKey.S: tag jsonschema:"maxLenght=3": unknown key "maxLenght" (did you mean "maxLength"?)`},
	{name: "jsonschema unknown key without suggestion", typ: tf[errSchemaKeyFar](), field: "S", tag: `jsonschema:"frobnicate"`,
		exact: `mcpreflect.errSchemaKeyFar.S: tag jsonschema:"frobnicate": unknown key "frobnicate"`},
	{name: "jsonschema empty item", typ: tf[errSchemaEmpty](), field: "S", tag: `jsonschema:"title=x,"`, msg: "empty item"},
	{name: "jsonschema composition", typ: tf[errSchemaOneOf](), field: "S", tag: `jsonschema:"oneof_required=a"`,
		msg: `"oneof_required" is not supported: composition keywords are not checked by mcpgen`},
	{name: "jsonschema nullable", typ: tf[errSchemaNullable](), field: "S", tag: `jsonschema:"nullable"`,
		msg: `"nullable" is not supported: null is not accepted for arguments; make the property optional instead`},
	{name: "jsonschema required=value", typ: tf[errSchemaRequiredValue](), field: "S", tag: `jsonschema:"required=true"`, msg: "required takes no value"},
	{name: "jsonschema missing value", typ: tf[errSchemaNoValue](), field: "S", tag: `jsonschema:"title="`, msg: "title needs a value (title=...)"},
	{name: "jsonschema type on int", typ: tf[errSchemaTypeOnInt](), field: "N", tag: `jsonschema:"type=string"`,
		msg: "type is derived from the Go type int; type= is only for interface fields"},
	{name: "jsonschema bad type", typ: tf[errSchemaTypeBogus](), field: "V", tag: `jsonschema:"type=thing"`, msg: "type=thing: not a JSON Schema type"},
	{name: "jsonschema bad boolean", typ: tf[errSchemaBool](), field: "S", tag: `jsonschema:"deprecated=maybe"`,
		msg: "deprecated=maybe: value must be true or false"},
	{name: "jsonschema enum not a number", typ: tf[errSchemaEnumInt](), field: "N", tag: `jsonschema:"enum=abc"`,
		exact: `mcpreflect.errSchemaEnumInt.N: tag jsonschema:"enum=abc": enum=abc: not a number`},
	{name: "jsonschema enum not an integer", typ: tf[errSchemaEnumFrac](), field: "N", tag: `jsonschema:"enum=1.5"`, msg: "enum=1.5: not an integer"},
	{name: "jsonschema enum not a boolean", typ: tf[errSchemaEnumBool](), field: "B", tag: `jsonschema:"enum=yes"`, msg: "enum=yes: not a boolean"},
	{name: "jsonschema const twice", typ: tf[errSchemaConstTwice](), field: "S", tag: `jsonschema:"const=a,const=b"`, msg: "const given twice"},
	{name: "jsonschema default twice", typ: tf[errSchemaDefaultTwice](), field: "S", tag: `jsonschema:"default=a,default=b"`, msg: "default given twice"},
	{name: "minimum on a string", typ: tf[errSchemaMinOnString](), field: "S", tag: `jsonschema:"minimum=1"`,
		exact: `mcpreflect.errSchemaMinOnString.S: tag jsonschema:"minimum=1": minimum applies to numbers, and this property is a string`},
	{name: "minLength on an integer", typ: tf[errSchemaMinLenOnInt](), field: "N", tag: `jsonschema:"minLength=1"`,
		msg: "minLength applies to strings, and this property is an integer"},
	{name: "minItems on a string", typ: tf[errSchemaMinItemsOnString](), field: "S", tag: `jsonschema:"minItems=1"`,
		msg: "minItems applies to arrays, and this property is a string"},
	{name: "minProperties on a struct", typ: tf[errSchemaMinPropsOnStruct](), field: "P", tag: `jsonschema:"minProperties=1"`,
		msg: "minProperties applies to maps, and this property is an object"},
	{name: "not a number", typ: tf[errSchemaNotNumber](), field: "N", tag: `jsonschema:"minimum=abc"`, msg: "minimum=abc: not a number"},
	{name: "multipleOf zero", typ: tf[errSchemaMultipleOf](), field: "F", tag: `jsonschema:"multipleOf=0"`, msg: "multipleOf must be greater than 0"},
	{name: "negative count", typ: tf[errSchemaCount](), field: "S", tag: `jsonschema:"maxLength=-1"`, msg: "maxLength=-1: not a non-negative integer"},
	{name: "bad pattern", typ: tf[errSchemaPattern](), field: "S", tag: `jsonschema:"pattern=[a-"`,
		exact: "mcpreflect.errSchemaPattern.S: tag jsonschema:\"pattern=[a-\": pattern=[a-: error parsing regexp: missing closing ]: `[a-`"},
	{name: "unknown format", typ: tf[errSchemaFormat](), field: "S", tag: `jsonschema:"format=phone"`,
		exact: `mcpreflect.errSchemaFormat.S: tag jsonschema:"format=phone": format=phone: unknown format (known: date, date-time, email, hostname, ipv4, ipv6, time, uri, uri-reference, uuid)`},
	{name: "uniqueItems=false", typ: tf[errSchemaUnique](), field: "L", tag: `jsonschema:"uniqueItems=false"`, msg: "uniqueItems takes no value"},
	{name: "extras not key=value", typ: tf[errExtrasNotKV](), field: "S", tag: `jsonschema_extras:"x-a"`, msg: `item "x-a" is not key=value`},
	{name: "extras without x-", typ: tf[errExtrasNoX](), field: "S", tag: `jsonschema_extras:"order=1"`,
		msg: `extra keyword "order" must start with x- (known keywords go in the jsonschema tag)`},
	{name: "x-mcp-header on an array", typ: tf[errHeaderKind](), field: "L", tag: `jsonschema_extras:"x-mcp-header=Region"`,
		exact: `mcpreflect.errHeaderKind.L: tag jsonschema_extras:"x-mcp-header=Region": x-mcp-header applies to string, integer and boolean properties, and this property is an array`},
	{name: "x-mcp-header bad name", typ: tf[errHeaderName](), field: "S", tag: `jsonschema_extras:"x-mcp-header=Bad Name"`,
		msg: `x-mcp-header=Bad Name: ' ' is not allowed in an HTTP header name`},
	{name: "x-mcp-header without name", typ: tf[errHeaderEmpty](), field: "S", tag: `jsonschema_extras:"x-mcp-header="`,
		msg: "x-mcp-header needs a header name"},
	{name: "interface without type", typ: tf[errInterface](), field: "V",
		exact: `mcpreflect.errInterface.V: an interface field has no schema: give it jsonschema:"type=...", or use json.RawMessage for any JSON value`},
	{name: "json.Unmarshaler without JSONSchema", typ: tf[errUnmarshalerField](), field: "U",
		exact: `mcpreflect.errUnmarshalerField.U: field type mcpreflect.errUnmarshaler: implements json.Unmarshaler, so mcpgen cannot know what JSON it accepts: add a JSONSchema() *jsonschema.Schema method`,
		is:    errUnsupported},
	{name: "float map keys", typ: tf[errMapKey](), field: "M",
		msg: "field type map[float64]int: map keys must be strings or integers (JSON object keys are strings)", is: errUnsupported},
	{name: "chan field", typ: tf[errChan](), field: "C", msg: "field type chan int: a chan cannot be sent as JSON", is: errUnsupported},
	{name: "complex field", typ: tf[errComplex](), field: "C", msg: "field type complex128: a complex128 cannot be sent as JSON", is: errUnsupported},
	{name: "func field", typ: tf[errFunc](), field: "F", msg: "field type func(): a func cannot be sent as JSON", is: errUnsupported},
	{name: "JSONSchema returns nil", typ: tf[errNilSchema](), field: "X", msg: "field type mcpreflect.errNilSchemaType: JSONSchema() returned nil"},
	{name: "JSONSchema returns a boolean schema", typ: tf[errBoolSchema](), field: "X", msg: `JSONSchema(): boolean schema at #/items: clients reject them; use {} or {"not": {}}`},
	{name: "default on a required property", typ: tf[errDefaultRequired](), field: "S", tag: `jsonschema:"default=x"`,
		exact: `mcpreflect.errDefaultRequired.S: tag jsonschema:"default=x": a default on a required property never applies: make it optional (omitempty)`},
	{name: "default breaks maximum", typ: tf[errDefaultBreaks](), field: "N", tag: `jsonschema:"default=500,maximum=100"`,
		exact: `mcpreflect.errDefaultBreaks.N: tag jsonschema:"default=500,maximum=100": default 500 breaks the property's own rules: must be at most 100, got 500`},
	{name: "default breaks oneof", typ: tf[errDefaultBreaksOneOf](), field: "Mode", tag: `jsonschema:"default=medium"`,
		msg: `default "medium" breaks the property's own rules: must be one of "fast", "slow", got "medium"`},
	{name: "duplicate names through embedding", typ: tf[errDupEmbedded](), field: "errDupA.ID",
		exact: `mcpreflect.errDupEmbedded.errDupA.ID: JSON name "ID" is used by errDupA.ID and errDupB.ID at the same depth; encoding/json would drop them all: rename one with a json tag`},
	{name: "duplicate json tags", typ: errDupTags, field: "A", msg: `JSON name "x" is used by A and B at the same depth`},
	{name: "validate omitempty on a required property", typ: tf[errValidateOmitempty](), field: "S", tag: `validate:"omitempty,max=3"`,
		exact: `mcpreflect.errValidateOmitempty.S: tag validate:"omitempty,max=3": omitempty contradicts the json tag, which makes "s" required: add omitempty to the json tag, or drop omitempty`},
	{name: "required contradicts minLength", typ: tf[errRequiredMinLength](), field: "S", tag: `validate:"required"`,
		exact: `mcpreflect.errRequiredMinLength.S: tag validate:"required": rule "required" sets minLength, which the jsonschema tag already sets to 0`},
	{name: "required with max=0", typ: tf[errRequiredMaxItems](), field: "L", tag: `validate:"required,max=0"`,
		exact: `mcpreflect.errRequiredMaxItems.L: tag validate:"required,max=0": rule "required" refuses the empty value, the only one maxItems 0 allows`},
	{name: "validate contradicts jsonschema", typ: tf[errContradiction](), field: "N", tag: `validate:"max=10"`,
		exact: `mcpreflect.errContradiction.N: tag validate:"max=10": rule "max=10" sets maximum, which the jsonschema tag already sets to 5`},
	{name: "oneof contradicts enum", typ: tf[errContradictionEnum](), field: "S", tag: `validate:"oneof=a c"`,
		msg: `rule "oneof=a c" sets enum, which the jsonschema tag already sets to ["a","b"]`},
	{name: "required_if", typ: tf[errRequiredIf](), field: "Other", tag: `validate:"required_if=Kind x"`,
		exact: `mcpreflect.errRequiredIf.Other: tag validate:"required_if=Kind x": rule "required_if" is not supported: its meaning depends on validator's zero values, not on whether an argument was sent; check it in the tool body`},
	{name: "unknown validator rule", typ: tf[errUnknownRule](), field: "S", tag: `validate:"bogus"`,
		exact: `mcpreflect.errUnknownRule.S: tag validate:"bogus": rule "bogus": validator has no rule "bogus"`},
	{name: "misspelt validator rule", typ: tf[errMisspeltRule](), field: "S", tag: `validate:"required,mni=3"`,
		exact: `mcpreflect.errMisspeltRule.S: tag validate:"required,mni=3": rule "mni=3": validator has no rule "mni" (did you mean "min"?)`},
	{name: "validate empty rule", typ: tf[errValidateEmpty](), field: "S", tag: `validate:"min=1,,max=2"`, msg: "empty rule"},
	{name: "keys before dive", typ: tf[errValidateKeysFirst](), field: "M", tag: `validate:"keys,min=1,endkeys"`, msg: "keys must come straight after dive"},
	{name: "endkeys without keys", typ: tf[errValidateEndkeys](), field: "M", tag: `validate:"dive,endkeys"`, msg: "endkeys without keys"},
	{name: "keys without endkeys", typ: tf[errValidateOpenKeys](), field: "M", tag: `validate:"dive,keys,min=1"`, msg: "keys without endkeys"},
	{name: "dive inside keys", typ: tf[errValidateDiveInKeys](), field: "M", tag: `validate:"dive,keys,dive,endkeys"`, msg: "dive inside keys ... endkeys"},
	{name: "dive on an int", typ: tf[errDiveOnInt](), field: "N", tag: `validate:"dive,min=1"`,
		exact: `mcpreflect.errDiveOnInt.N: tag validate:"dive,min=1": dive on int, which is not a slice, array or map`},
	{name: "dive on []byte", typ: tf[errDiveOnBytes](), field: "B", tag: `validate:"dive,max=3"`,
		msg: "dive on []byte, which is sent as one base64 string, not as an array"},
	{name: "keys rule without a schema equivalent", typ: tf[errKeysRule](), field: "M", tag: `validate:"dive,keys,startswith=a,endkeys"`,
		msg: `keys rule "startswith=a" has no JSON Schema equivalent; only string rules (min, max, len, oneof, formats) may check map keys`},
	{name: "eqfield to a missing field", typ: tf[errCross](), field: "A", tag: `validate:"eqfield=Nope"`,
		msg: `eqfield=Nope: mcpreflect.errCross has no field "Nope"`},
	{name: "mcp syntax", typ: tf[errMetaSyntax](), field: "_", tag: `mcp:"title='x"`,
		exact: `mcpreflect.errMetaSyntax._: tag mcp:"title='x": at offset 0: unterminated quote in value of "title"`},
	{name: "mcp unknown key", typ: tf[errMetaUnknown](), field: "_", tag: `mcp:"readonly"`,
		exact: `mcpreflect.errMetaUnknown._: tag mcp:"readonly": unknown key "readonly" (did you mean "readOnly"?)`},
	{name: "mcp bad group and eager", typ: tf[errMetaGroup](), field: "_", tag: `mcp:"group='a b',eager=often"`,
		exact: "mcpreflect.errMetaGroup._: tag mcp:\"group='a b',eager=often\": group \"a b\": a group is 1 to 128 characters of A-Z, a-z, 0-9, '_', '-', '.' and '/'\n" +
			"mcpreflect.errMetaGroup._: tag mcp:\"group='a b',eager=often\": eager takes no value, or true/false"},
	{name: "mcp destructive on readOnly", typ: tf[errMetaMeaningless](), field: "_", tag: `mcp:"readOnly,destructive"`,
		exact: `mcpreflect.errMetaMeaningless._: tag mcp:"readOnly,destructive": meaningless hint combination: destructive on a readOnly tool (a read-only tool modifies nothing)`},
	{name: "mcp idempotent on readOnly", typ: tf[errMetaIdempotent](), field: "_", tag: `mcp:"readOnly,idempotent"`,
		msg: "meaningless hint combination: idempotent on a readOnly tool"},
	{name: "mcp bad value", typ: tf[errMetaValue](), field: "_", tag: `mcp:"readOnly=maybe"`, msg: "readOnly=maybe: value must be true or false"},
	{name: "mcp title without value", typ: tf[errMetaTitle](), field: "_", tag: `mcp:"title"`, msg: "title needs a value (title=...)"},
	{name: "mcp key twice", typ: tf[errMetaTwice](), field: "_", tag: `mcp:"readOnly,readOnly"`, msg: `key "readOnly" given twice`},
	{name: "mcp on a non-blank field", typ: tf[errMetaField](), field: "S", tag: `mcp:"readOnly"`,
		exact: "mcpreflect.errMetaField.S: tag mcp:\"readOnly\": the mcp tag belongs on a blank field: _ struct{} `mcp:\"...\"`"},
	{name: "mcp on an embedded struct", typ: tf[errMetaEmbedded](), field: "errMetaInner._", tag: `mcp:"readOnly"`,
		msg: "tool metadata belongs on the argument type itself, not on an embedded struct"},
	{name: "two mcp fields", typ: tf[errMetaTwo](), field: "_", tag: `mcp:"idempotent"`, msg: "only one _ field may carry an mcp tag"},
	{name: "embedded field's tag", typ: tf[errEmbeddedBad](), field: "errEmbeddedBadBase.Bad", tag: `json:"bad,omitempy"`,
		msg: `unknown option "omitempy"`},
	{name: "non-struct argument", typ: tf[int](),
		exact: `int: the argument type must be a struct: a tool's arguments are a JSON object with named properties`},
	{name: "slice argument", typ: tf[[]string](), msg: "the argument type must be a struct"},
	{name: "time.Time argument", typ: tf[time.Time](), msg: "the argument type must be a struct"},
}

func TestDefinitionErrors(t *testing.T) {
	for _, c := range defErrCases {
		t.Run(c.name, func(t *testing.T) {
			_, err := PlanFor(c.typ, Options{})
			if err == nil {
				t.Fatalf("PlanFor(%v): want an error", c.typ)
			}
			checkDefErr(t, err, c)
		})
	}
}

func checkDefErr(t *testing.T, err error, c defErrCase) {
	t.Helper()
	var de *DefinitionError
	if !errors.As(err, &de) {
		t.Fatalf("want *DefinitionError, got %T: %v", err, err)
	}
	if want := c.typ.String(); de.Type != want {
		t.Errorf("Type = %q, want %q (%v)", de.Type, want, err)
	}
	if de.Field != c.field {
		t.Errorf("Field = %q, want %q (%v)", de.Field, c.field, err)
	}
	if de.Tag != c.tag {
		t.Errorf("Tag = %q, want %q (%v)", de.Tag, c.tag, err)
	}
	msg := err.Error()
	// The message always starts with the type, the field and the tag.
	prefix := c.typ.String()
	if c.field != "" {
		prefix += "." + c.field
	}
	if c.tag != "" {
		prefix += ": tag " + c.tag
	}
	if !strings.HasPrefix(msg, prefix+": ") {
		t.Errorf("message %q does not start with %q", msg, prefix+": ")
	}
	if c.exact != "" && msg != c.exact {
		t.Errorf("message:\n got: %s\nwant: %s", msg, c.exact)
	}
	if c.msg != "" && !strings.Contains(de.Msg, c.msg) {
		t.Errorf("Msg = %q, want it to contain %q", de.Msg, c.msg)
	}
	if c.exact == "" && c.msg == "" {
		t.Error("case pins no message")
	}
	if c.is != nil && !errors.Is(err, c.is) {
		t.Errorf("errors.Is(err, %v) = false", c.is)
	}
}

// A bad tag deep inside a nested struct names that struct and its field.
func TestDefinitionErrorNested(t *testing.T) {
	_, err := PlanFor(tf[errNested](), Options{})
	checkDefErr(t, err, defErrCase{typ: tf[errNestedInner](), field: "Bad", tag: `jsonschema:"minimum=1"`,
		msg: "minimum applies to numbers"})
}

// Result types fail for the same reasons, but only where JSON cannot carry
// them: output schemas allow interfaces and json.Unmarshaler types.
func TestOutputDefinitionErrors(t *testing.T) {
	_, err := OutputFor(tf[chan int](), Options{})
	var de *DefinitionError
	if !errors.As(err, &de) || de.Type != "chan int" || !strings.Contains(de.Msg, "a chan cannot be sent as JSON") {
		t.Errorf("OutputFor(chan int) = %v", err)
	}
	_, err = OutputFor(tf[errChan](), Options{})
	if !errors.As(err, &de) || de.Type != "mcpreflect.errChan" || de.Field != "C" {
		t.Errorf("OutputFor(errChan) = %v", err)
	}
	for _, ok := range []reflect.Type{tf[errInterface](), tf[errUnmarshalerField](), tf[errMetaField]()} {
		if _, err := OutputFor(ok, Options{}); err != nil {
			t.Errorf("OutputFor(%v): %v", ok, err)
		}
	}
}

type fnArgs struct {
	Q string `json:"q"`
}

func TestAnalyzeFuncShapes(t *testing.T) {
	good := []struct {
		fn     any
		hasCtx bool
		in     reflect.Type
		inPtr  bool
		out    reflect.Type
	}{
		{func(context.Context, fnArgs) (string, error) { return "", nil }, true, tf[fnArgs](), false, tf[string]()},
		{func(context.Context, *fnArgs) error { return nil }, true, tf[fnArgs](), true, nil},
		{func(context.Context) (int, error) { return 0, nil }, true, nil, false, tf[int]()},
		{func(context.Context) error { return nil }, true, nil, false, nil},
		{func(fnArgs) ([]string, error) { return nil, nil }, false, tf[fnArgs](), false, tf[[]string]()},
		{func(*fnArgs) error { return nil }, false, tf[fnArgs](), true, nil},
		{func() (map[string]int, error) { return nil, nil }, false, nil, false, tf[map[string]int]()},
		{func() error { return nil }, false, nil, false, nil},
	}
	for _, g := range good {
		f, err := analyzeFunc(g.fn)
		if err != nil {
			t.Errorf("analyzeFunc(%T): %v", g.fn, err)
			continue
		}
		if f.hasCtx != g.hasCtx || f.in != g.in || f.inPtr != g.inPtr || f.out != g.out {
			t.Errorf("analyzeFunc(%T) = ctx %v in %v ptr %v out %v", g.fn, f.hasCtx, f.in, f.inPtr, f.out)
		}
		in, out, call, err := AnalyzeFunc(g.fn)
		if err != nil || in != g.in || out != g.out || call == nil {
			t.Errorf("AnalyzeFunc(%T) = %v, %v, %v", g.fn, in, out, err)
		}
	}

	var nilFn func() error
	bad := []struct {
		fn    any
		typ   string
		exact string // the whole message, when pinned
		msg   string
	}{
		{fn: 42, typ: "int", exact: "int: not a function: want " + funcShapes},
		{fn: nil, typ: "<nil>", msg: "not a function"},
		{fn: nilFn, typ: "func() error", exact: "func() error: nil function"},
		{fn: func(...int) error { return nil }, typ: "func(...int) error", msg: "variadic functions are not tools"},
		{fn: func(fnArgs, context.Context) error { return nil }, typ: "func(mcpreflect.fnArgs, context.Context) error", msg: "too many parameters"},
		{fn: func(context.Context, context.Context) error { return nil }, typ: "func(context.Context, context.Context) error", msg: "context.Context must come first"},
		{fn: func(string) error { return nil }, typ: "func(string) error",
			exact: "func(string) error: the argument type string is not a struct: want " + funcShapes},
		{fn: func(*int) error { return nil }, typ: "func(*int) error", msg: "the argument type *int is not a struct"},
		{fn: func(context.Context, fnArgs, int) error { return nil }, typ: "func(context.Context, mcpreflect.fnArgs, int) error", msg: "too many parameters"},
		{fn: func() {}, typ: "func()", msg: "wrong number of results"},
		{fn: func() string { return "" }, typ: "func() string", msg: "the last result must be error"},
		{fn: func() (string, int) { return "", 0 }, typ: "func() (string, int)", msg: "the last result must be error"},
		{fn: func() (error, error) { return nil, nil }, typ: "func() (error, error)", msg: "the first result must not be error"},
		{fn: func() (int, string, error) { return 0, "", nil }, typ: "func() (int, string, error)", msg: "wrong number of results"},
	}
	for _, b := range bad {
		_, _, _, err := AnalyzeFunc(b.fn)
		var de *DefinitionError
		if !errors.As(err, &de) {
			t.Errorf("AnalyzeFunc(%s): want *DefinitionError, got %v", b.typ, err)
			continue
		}
		if de.Type != b.typ {
			t.Errorf("AnalyzeFunc(%s): Type = %q", b.typ, de.Type)
		}
		if b.exact != "" && err.Error() != b.exact {
			t.Errorf("AnalyzeFunc(%s):\n got: %s\nwant: %s", b.typ, err, b.exact)
		}
		if b.msg != "" && !strings.Contains(err.Error(), b.msg) {
			t.Errorf("AnalyzeFunc(%s) = %q, want it to contain %q", b.typ, err, b.msg)
		}
	}
}

type errManyInner struct {
	Deep string `jsonschema:"maxLenght=3"`
}

type errMany struct {
	_ struct{} `mcp:"readonly,timeout=soon"`
	//lint:ignore SA5008 the misspelt option is what the test checks
	Name  string       `json:"name,omitempy"`
	Count int          `jsonschema:"minimum=x"`
	Tags  []string     `validate:"dive,,min=1"`
	Ok    string       `json:"ok"`
	Inner errManyInner `json:"inner"`
	Word  string       `json:"word" validate:"bogus"`
	Num   int          `mcp:"readOnly"`
	Two   string       `json:"two" jsonschema:"minLenght=1" validate:"min=1,,"`
}

// A type with several bad tags reports all of them at once, each naming the
// type, the field and the tag: the tool's mcp tag first, then what the tag
// scanner finds wrong with each field's tags in field order (several tags of
// one field each), then what the tags say that the field's type cannot take.
func TestDefinitionErrorsAllReported(t *testing.T) {
	_, err := PlanFor(tf[errMany](), Options{})
	if err == nil {
		t.Fatal("want errors")
	}
	var got []string
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var de *DefinitionError
		if !errors.As(err, &de) {
			t.Errorf("not a *DefinitionError: %T %v", err, err)
		}
		got = append(got, err.Error())
	}
	walk(err)
	want := []string{
		`mcpreflect.errMany._: tag mcp:"readonly,timeout=soon": unknown key "readonly" (did you mean "readOnly"?)`,
		`mcpreflect.errMany._: tag mcp:"readonly,timeout=soon": timeout must be a positive duration such as 5s or 250ms`,
		`mcpreflect.errMany.Name: tag json:"name,omitempy": unknown option "omitempy" (did you mean "omitempty"?)`,
		`mcpreflect.errMany.Tags: tag validate:"dive,,min=1": empty rule`,
		"mcpreflect.errMany.Num: tag mcp:\"readOnly\": the mcp tag belongs on a blank field: _ struct{} `mcp:\"...\"`",
		`mcpreflect.errMany.Two: tag jsonschema:"minLenght=1": unknown key "minLenght" (did you mean "minLength"?)`,
		`mcpreflect.errMany.Two: tag validate:"min=1,,": empty rule`,
		`mcpreflect.errMany.Count: tag jsonschema:"minimum=x": minimum=x: not a number`,
		`mcpreflect.errManyInner.Deep: tag jsonschema:"maxLenght=3": unknown key "maxLenght" (did you mean "maxLength"?)`,
		`mcpreflect.errMany.Word: tag validate:"bogus": rule "bogus": validator has no rule "bogus"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
	if err.Error() != strings.Join(want, "\n") {
		t.Errorf("Error() is not every error, one a line:\n%s", err)
	}
}

type errDefaultsInner struct {
	Level int `json:"level,omitempty" jsonschema:"default=9" validate:"omitempty,max=5"`
}

// errDefaultsAndTags has bad defaults and bad tags, each of which used to
// be reported only once the ones before it were fixed.
type errDefaultsAndTags struct {
	Color   string           `json:"color,omitempty" jsonschema:"enum=red,enum=blue,default=green"`
	Mode    string           `json:"mode,omitempty" jsonschema:"default=medium" validate:"omitempty,oneof=fast slow"`
	Limit   int              `json:"limit,omitempty" jsonschema:"default=500" validate:"omitempty,max=100"`
	Code    string           `json:"code,omitempty" jsonschema:"pattern=^[A-Z]+$,default=abc"`
	Name    string           `json:"name" jsonschema:"maxLenght=3"`
	Count   int              `json:"count" validate:"min=1,,"`
	Options errDefaultsInner `json:"options"`
}

// errDefaultsOnly has three bad defaults and good tags.
type errDefaultsOnly struct {
	Color string `json:"color,omitempty" jsonschema:"enum=red,enum=blue,default=green"`
	Mode  string `json:"mode,omitempty" jsonschema:"default=medium" validate:"omitempty,oneof=fast slow"`
	Limit int    `json:"limit,omitempty" jsonschema:"default=500" validate:"omitempty,max=100"`
}

// Every problem of a type is reported in one error: bad tags first, then
// the defaults that break their own rules (enum, oneof, max, pattern), each
// naming the type, the field and the tag.
func TestDefaultErrorsWithTagErrors(t *testing.T) {
	check := func(t *testing.T, err error, want []string) {
		t.Helper()
		var got []string
		var walk func(error)
		walk = func(err error) {
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				for _, e := range j.Unwrap() {
					walk(e)
				}
				return
			}
			var de *DefinitionError
			if !errors.As(err, &de) {
				t.Errorf("not a *DefinitionError: %T %v", err, err)
			}
			got = append(got, err.Error())
		}
		walk(err)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("errors:\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
		}
	}
	defaults := []string{
		`mcpreflect.errDefaultsAndTags.Color: tag jsonschema:"enum=red,enum=blue,default=green": default "green" breaks the property's own rules: must be one of "red", "blue", got "green"`,
		`mcpreflect.errDefaultsAndTags.Mode: tag jsonschema:"default=medium": default "medium" breaks the property's own rules: must be one of "fast", "slow", got "medium"`,
		`mcpreflect.errDefaultsAndTags.Limit: tag jsonschema:"default=500": default 500 breaks the property's own rules: must be at most 100, got 500`,
		`mcpreflect.errDefaultsAndTags.Code: tag jsonschema:"pattern=^[A-Z]+$,default=abc": default "abc" breaks the property's own rules: must match the pattern ^[A-Z]+$`,
		`mcpreflect.errDefaultsInner.Level: tag jsonschema:"default=9": default 9 breaks the property's own rules: must be at most 5, got 9`,
	}
	_, err := PlanFor(tf[errDefaultsOnly](), Options{})
	check(t, err, []string{
		strings.ReplaceAll(defaults[0], "errDefaultsAndTags", "errDefaultsOnly"),
		strings.ReplaceAll(defaults[1], "errDefaultsAndTags", "errDefaultsOnly"),
		strings.ReplaceAll(defaults[2], "errDefaultsAndTags", "errDefaultsOnly"),
	})
	_, err = PlanFor(tf[errDefaultsAndTags](), Options{})
	check(t, err, append([]string{
		`mcpreflect.errDefaultsAndTags.Name: tag jsonschema:"maxLenght=3": unknown key "maxLenght" (did you mean "maxLength"?)`,
		`mcpreflect.errDefaultsAndTags.Count: tag validate:"min=1,,": empty rule`,
	}, defaults...))
}
