import Testing
import BenchScenarios
import LayoutEngine

/// A scenario's `header.pin` (`PinBehavior`) builds the engine's `HeaderPin` by a switch, not by
/// raw value. The expected table is written out here by hand, so a case mapped to its neighbour
/// (a stacked header built as a normal one, which pins too and would pass a looser check) fails here.
@Suite struct PinBehaviorMappingTests {
    @Test func everyHeaderPinBehaviorBuildsItsOwnEnginePin() {
        let expected: [PinBehavior: HeaderPin] = [.none: .none, .normal: .normal, .stacked: .stacked]
        #expect(Set(PinBehavior.allCases) == Set(expected.keys))
        for behavior in PinBehavior.allCases {
            #expect(behavior.headerPin == expected[behavior], "header.pin \(behavior.rawValue) builds \(behavior.headerPin)")
        }
        // Each engine pin is the image of exactly one behaviour.
        for pin in HeaderPin.allCases {
            let from = PinBehavior.allCases.filter { $0.headerPin == pin }
            #expect(from.count == 1, "engine pin \(pin) is built by \(from), expected exactly one behaviour")
        }
    }
}
