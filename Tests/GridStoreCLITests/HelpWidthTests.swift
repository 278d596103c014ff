import Foundation
@testable import GridStoreCLI
import Testing

/// Help, usage lines and usage errors fit `$COLUMNS` (else 80), wrapped as swift-argument-parser wraps them.
@Suite("Help at every width")
struct HelpWidthTests {
    static let commands = GridStoreCommandLine.commandNames.components(separatedBy: ", ")

    @Test("every command's help, and the top-level help, fit widths from 40 to 120")
    func helpFits() throws {
        for width in [40, 57, 80, 100, 120] {
            for arguments in [["--help"]] + Self.commands.map({ [$0, "--help"] }) {
                let result = try CommandRunner.run(arguments, environment: ["COLUMNS": String(width)])
                #expect(result.status == 0)
                for line in result.standardOutput.split(separator: "\n") {
                    #expect(DisplayWidth.columns(of: line) <= width, "\(arguments) at \(width): \(line)")
                }
            }
        }
    }

    @Test("a long usage line wraps under the first argument, in help and in a usage error")
    func usageWraps() throws {
        let help = try CommandRunner.run(["init", "--help"]).standardOutput.components(separatedBy: "\n")
        let start = try #require(help.firstIndex { $0.hasPrefix("USAGE: gridstore init [--layout <tiles|honeycomb>]") })
        #expect(help[start + 1].hasPrefix(String(repeating: " ", count: "USAGE: gridstore init ".count) + "["))
        let error = try CommandRunner.run(["init", "--items", "x"]).standardError.components(separatedBy: "\n")
        #expect(error[0].hasPrefix("Error: "))
        #expect(error[1].hasPrefix("Usage: gridstore init [--layout"))
        #expect(error[2].hasPrefix(String(repeating: " ", count: "Usage: gridstore init ".count) + "["))
        #expect(error.allSatisfy { $0.count <= 80 })
        #expect(error.last(where: { !$0.isEmpty }) == "See 'gridstore init --help'.")
    }
}
