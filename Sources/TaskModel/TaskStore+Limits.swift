import Foundation
import PersistKit

extension TaskStore {
    /// The store's daily limits (``DayLimits``): the defaults until they are set.
    ///
    /// - Throws: `PersistError` when the store cannot be read.
    public func dayLimits() throws -> DayLimits {
        try storeInfo()?.limits ?? .defaults
    }

    /// Sets the store's daily limits and saves. A day that holds more than a lowered limit
    /// keeps its tasks; planning more is refused until it is under.
    ///
    /// - Throws: `PersistError` `.validation` for a limit outside
    ///   ``DayLimits/allowed`` (0 to 99), or any save error; nothing changes then.
    public func setDayLimits(_ limits: DayLimits) throws {
        for priority in TaskPriority.allCases.reversed() where !DayLimits.allowed.contains(limits[priority]) {
            throw PersistError(.validation, "a day's limit of \(priority.name)-priority tasks must be from "
                               + "\(DayLimits.allowed.lowerBound) to \(DayLimits.allowed.upperBound), not \(limits[priority])",
                               entity: StoreInfo.entityName, attribute: "\(priority.name)PriorityLimit")
        }
        try saving {
            let info = try storeInfo() ?? StoreInfo(context: context)
            info.limits = limits
        }
    }

    /// The store's one record, if it has been written.
    func storeInfo() throws -> StoreInfo? {
        try context.fetch(FetchRequest<StoreInfo>()).first
    }
}
