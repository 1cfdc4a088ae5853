extension LayoutChange {
    /// Throws exactly the `LayoutError` that `apply(to:)` would throw on data with these section
    /// sizes, without touching any data: for updaters that keep their items in another structure
    /// (`StableLanesUpdater`) and must reject a change before changing anything. O(items added).
    func validate(sectionCount: Int, itemCount: (Int) -> Int) throws(LayoutError) {
        func checkItems(_ items: [ItemSize], section: Int, from first: Int) throws(LayoutError) {
            for (offset, size) in items.enumerated() {
                try LayoutData.check(width: size.width, height: size.height, field: "sections[\(section)].items[\(first + offset)]")
            }
        }
        switch self {
        case .appendItems(let section, let items):
            guard section >= 0, section < sectionCount else {
                throw LayoutError(field: "section", reason: .invalidCount(section))
            }
            try checkItems(items, section: section, from: itemCount(section))
        case .insertItems(let section, let item, let items):
            guard section >= 0, section < sectionCount else {
                throw LayoutError(field: "section", reason: .noSuchElement(.item(item, section: section)))
            }
            guard item >= 0, item <= itemCount(section) else {
                throw LayoutError(field: "item", reason: .noSuchElement(.item(item, section: section)))
            }
            try checkItems(items, section: section, from: item)
        case .removeItems(let section, let item, let count):
            guard section >= 0, section < sectionCount, item >= 0, count >= 0, item + count <= itemCount(section) else {
                throw LayoutError(field: "item", reason: .noSuchElement(.item(item + max(count - 1, 0), section: section)))
            }
        case .setHeight(let section, let item, let height):
            guard section >= 0, section < sectionCount, item >= 0, item < itemCount(section) else {
                throw LayoutError(field: "item", reason: .noSuchElement(.item(item, section: section)))
            }
            try LayoutError.checkSize(height, "sections[\(section)].items[\(item)].height")
        case .insertSection(let section, let items):
            guard section >= 0, section <= sectionCount else {
                throw LayoutError(field: "section", reason: .invalidCount(section))
            }
            try checkItems(items, section: section, from: 0)
        case .removeSection(let section):
            guard section >= 0, section < sectionCount else {
                throw LayoutError(field: "section", reason: .noSuchElement(.header(section: section)))
            }
        case .moveItem(let from, let to):
            try LayoutData.checkMove(from: from, to: to, sectionCount: sectionCount, itemCount: itemCount)
        case .moveSection(let from, let to):
            try LayoutData.checkSectionMove(from: from, to: to, sectionCount: sectionCount)
        case .reloadItems(let section, let item, let items):
            try LayoutData.checkReload(items, section: section, at: item, sectionCount: sectionCount, itemCount: itemCount)
        }
    }
}
