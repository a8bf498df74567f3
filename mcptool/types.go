package mcptool

import mcpreflect "github.com/mcpgen/mcpgen/reflect"

// Types lets handlers describe, decode and encode the argument and result
// types they own, in place of mcpgen's reflection over struct tags: the
// protobuf adapter's mcpproto.Types() is Types with its handler of every
// proto.Message. Handlers are asked in order, after those of earlier Types
// options; see [mcpreflect.TypeHandler] for writing one.
func Types(handlers ...mcpreflect.TypeHandler) RegistryOption {
	return registryOption(func(c *registryConfig) {
		c.types = append(c.types[:len(c.types):len(c.types)], handlers...)
	})
}
