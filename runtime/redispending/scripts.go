package redispending

import (
	_ "embed"

	"github.com/redis/go-redis/v9"
)

// The scripts, each with the helpers of lua/common.lua. Those that write
// carry the shebang without flags, so that Redis refuses them whole when
// it is out of memory, before any write; list may run anyway.
var (
	//go:embed lua/common.lua
	commonLua string
	//go:embed lua/create.lua
	createLua string
	//go:embed lua/swap.lua
	swapLua string
	//go:embed lua/list.lua
	listLua string

	createScript = redis.NewScript("#!lua\n" + commonLua + createLua)
	swapScript   = redis.NewScript("#!lua\n" + commonLua + swapLua)
	listScript   = redis.NewScript("#!lua flags=no-writes\n" + commonLua + listLua)
)
