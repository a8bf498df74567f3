package mcptool

import "github.com/mcpgen/mcpgen/mcptool/cluster"

// SpentStates sets where the registry remembers the requestStates already
// answered, so that each is answered once (see [cluster.SpentStore]). The
// default (and SpentStates(nil)) keeps them in this process; replicas
// behind one load balancer must share one.
func SpentStates(s cluster.SpentStore) RegistryOption {
	return registryOption(func(c *registryConfig) { c.spent = s })
}
