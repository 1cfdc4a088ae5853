extension EditWorkload {
    package enum Operation: String, WorkloadOperation {
        /// One item inserted in the middle.
        case insert
        /// One item removed from the middle.
        case delete
        /// The height of one item in the middle changed.
        case heightChange = "height-change"
        /// One item in the middle moved, within its section or to another (`moveItem(at:to:)`).
        case move
        /// The section of an item in the middle moved to another index (`moveSection(_:toSection:)`).
        case moveSection = "move-section"
        /// One item in the middle reloaded with a new size, width included (`reloadItems(at:)`).
        case reload

        package var timed: String {
            switch self {
            case .insert: return "one item inserted in the middle half of the items, " + UpdateTiming.timed
            case .delete: return "one item deleted from the middle half of the items, " + UpdateTiming.timed
            case .heightChange: return "one item's height changed in the middle half of the items, " + UpdateTiming.timed
            case .move:
                return "one item of the middle half moved, every other one to another section, " + UpdateTiming.timed
            case .moveSection: return "the section of an item of the middle half moved to another index, " + UpdateTiming.timed
            case .reload: return "one item of the middle half reloaded with a new size (width included), " + UpdateTiming.timed
            }
        }
        package var untimed: String { UpdateTiming.untimed }
    }
}
