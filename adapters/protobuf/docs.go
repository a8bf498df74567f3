package mcpproto

import (
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// docs finds the .proto comments of descriptors: in the descriptors' own
// source info when the program carries it (protoreflect's SourceLocations;
// protoc-gen-go leaves it out of generated code), else in descriptor sets
// written by protoc --include_source_info and given to [SourceInfo].
type docs struct {
	byName map[protoreflect.FullName]string
}

// addSet reads the comments of a serialized FileDescriptorSet.
func (d *docs) addSet(b []byte) error {
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(b, &set); err != nil {
		return err
	}
	if d.byName == nil {
		d.byName = map[protoreflect.FullName]string{}
	}
	for _, f := range set.GetFile() {
		names := pathNames(f)
		for _, loc := range f.GetSourceCodeInfo().GetLocation() {
			c := comment(loc.GetLeadingComments(), loc.GetTrailingComments())
			if c == "" {
				continue
			}
			if n, ok := names[pathKey(loc.GetPath())]; ok {
				d.byName[n] = c
			}
		}
	}
	return nil
}

// of returns the comment of a message, field, enum, service or method.
func (d *docs) of(desc protoreflect.Descriptor) string {
	if loc := desc.ParentFile().SourceLocations().ByDescriptor(desc); loc.LeadingComments != "" || loc.TrailingComments != "" {
		return comment(loc.LeadingComments, loc.TrailingComments)
	}
	if d == nil {
		return ""
	}
	return d.byName[desc.FullName()]
}

// comment is a leading comment (else a trailing one) as one text.
func comment(leading, trailing string) string {
	c := leading
	if strings.TrimSpace(c) == "" {
		c = trailing
	}
	lines := strings.Split(strings.TrimSpace(c), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func pathKey(p []int32) string {
	var b strings.Builder
	for _, x := range p {
		b.WriteString(string(rune(x + 1)))
	}
	return b.String()
}

// pathNames maps the source-info path of every message, field, enum,
// service and method of f to its full name.
func pathNames(f *descriptorpb.FileDescriptorProto) map[string]protoreflect.FullName {
	out := map[string]protoreflect.FullName{}
	pkg := f.GetPackage()
	join := func(parent, name string) string {
		if parent == "" {
			return name
		}
		return parent + "." + name
	}
	var msg func(path []int32, parent string, m *descriptorpb.DescriptorProto)
	enum := func(path []int32, parent string, e *descriptorpb.EnumDescriptorProto) {
		out[pathKey(path)] = protoreflect.FullName(join(parent, e.GetName()))
	}
	msg = func(path []int32, parent string, m *descriptorpb.DescriptorProto) {
		name := join(parent, m.GetName())
		out[pathKey(path)] = protoreflect.FullName(name)
		for i, fd := range m.GetField() {
			out[pathKey(append(path[:len(path):len(path)], 2, int32(i)))] = protoreflect.FullName(join(name, fd.GetName()))
		}
		for i, n := range m.GetNestedType() {
			msg(append(path[:len(path):len(path)], 3, int32(i)), name, n)
		}
		for i, e := range m.GetEnumType() {
			enum(append(path[:len(path):len(path)], 4, int32(i)), name, e)
		}
	}
	for i, m := range f.GetMessageType() {
		msg([]int32{4, int32(i)}, pkg, m)
	}
	for i, e := range f.GetEnumType() {
		enum([]int32{5, int32(i)}, pkg, e)
	}
	for i, s := range f.GetService() {
		sname := join(pkg, s.GetName())
		out[pathKey([]int32{6, int32(i)})] = protoreflect.FullName(sname)
		for j, m := range s.GetMethod() {
			out[pathKey([]int32{6, int32(i), 2, int32(j)})] = protoreflect.FullName(join(sname, m.GetName()))
		}
	}
	return out
}
