import Foundation

// The original iOS layout's storage, for gridstore-bench: tile sizes in UserDefaults under
// keys r:<row>_s:<section>_grid_item_size.
//
//   gridstore-bench-defaults <suite> fill <count>     store <count> sizes
//   gridstore-bench-defaults <suite> toggle <index>   read every size (as a re-layout does),
//                                                     toggle one, synchronize
//   gridstore-bench-defaults <suite> remove           delete the suite

let arguments = CommandLine.arguments
guard arguments.count >= 3, let defaults = UserDefaults(suiteName: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: gridstore-bench-defaults <suite> fill <count> | toggle <index> | remove\n".utf8))
    exit(64)
}
let sizes = ["grid_size_small", "grid_size_middle", "grid_size_big"]
func key(_ row: Int) -> String { "r:\(row)_s:0_grid_item_size" }

switch arguments[2] {
case "fill":
    let count = Int(arguments[3])!
    for row in 0..<count { defaults.set(sizes[row % 3], forKey: key(row)) }
    defaults.set(count, forKey: "gridstore_bench_count")
    defaults.synchronize()
case "toggle":
    let index = Int(arguments[3])!
    let count = defaults.integer(forKey: "gridstore_bench_count")
    var current: [String] = []
    current.reserveCapacity(count)
    for row in 0..<count { current.append(defaults.string(forKey: key(row)) ?? sizes[0]) }
    let next = sizes[((sizes.firstIndex(of: current[index]) ?? 0) + 1) % 3]
    defaults.set(next, forKey: key(index))
    defaults.synchronize()
    print(next)
case "remove":
    defaults.removePersistentDomain(forName: arguments[1])
    defaults.synchronize()
default:
    exit(64)
}
