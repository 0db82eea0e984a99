// luavm.go sizes the Lua states miniredis builds for EVAL.

package sim

import lua "github.com/yuin/gopher-lua"

// The Lua state of one EVAL. miniredis builds a new gopher-lua state for
// every EVAL (lua.NewState(lua.Options{SkipOpenLibs: true})), and with no
// sizes given gopher-lua falls back to its package variables
// lua.RegistrySize (5,120 value slots, 80 KB) and lua.CallStackSize (256
// frames, 32 KB): more than half of the ~210 KB an EVAL allocates, and
// the explorer runs an EVAL for most of the states it reaches. We set
// smaller ones.
//
// This is process-wide: every gopher-lua state made afterwards in this
// process gets these sizes, whoever makes it: sim/luarun's reused states
// (which run every EVAL the pooled servers see, backend_pool.go) and
// miniredis's own for any EVAL that reaches it another way. Both run only
// the scripts of sim: the lesson scripts (scripts.go) and a learner's
// design scripts, which sim/lockdesign's Validate lets through only if
// sim/luacheck accepts them. Those sizes are safe for them because such
// a script has no loop, no function definition (so no recursion and no
// Lua function but its main chunk) and at most 2,048 bytes:
//   - registry: the main chunk's registers, at most 200 (gopher-lua's
//     compiler refuses a function that needs more, whatever the sizes),
//     plus a few slots for the Go functions it calls (redis.call,
//     tonumber, tostring) and for miniredis's own setup. The largest such
//     use measured is under 210 slots; 1,024 is five times that.
//   - call stack: the script runs under a protected call and calls only Go
//     functions that call nothing back, so at most 3 frames are in use;
//     32 is ten times that.
//
// TestLuaSizesSuffice runs every lesson script and the largest and
// deepest scripts luacheck accepts (2 KB, its deepest nesting, as many
// locals and as many redis.call arguments as compile) with these sizes and
// with gopher-lua's own, and wants the same replies — and again with a
// quarter of the registry and an eighth of the call stack, to keep the
// margin. A script over either limit would get an error reply ("registry
// overflow", "stack overflow") where real Redis answers; one that needs
// more than the call stack during miniredis's own setup would panic.
const (
	luaRegistrySize  = 1024
	luaCallStackSize = 32
)

func init() {
	lua.RegistrySize = luaRegistrySize
	lua.CallStackSize = luaCallStackSize
}
