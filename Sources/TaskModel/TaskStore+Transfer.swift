import Foundation
import PersistKit

extension TaskStore {
    /// Every task, in list order, with every project and tag, the days reviewed and the daily
    /// limits, as an export document (JSON; see ``TaskDocument``).
    ///
    /// ```swift
    /// let data = try store.exportDocument()
    /// try data.write(to: backupURL)
    /// ```
    ///
    /// - Throws: `PersistError` when the store cannot be read, or
    ///   `.externalDataUnavailable` when an attachment's file is missing or damaged: an export
    ///   never leaves out what it cannot read.
    public func exportDocument() throws -> Data {
        let tasks = try tasks()
        let labels = try labels(of: tasks)
        let reviews = try context.fetch(FetchRequest<Day>(sortBy: [FetchSortDescriptor(\Day.date)])).compactMap(DayReview.init)
        return TaskDocument(tasks: try tasks.map { try TaskRecord($0, labels: labels) }, projects: try projects().map(\.name),
                            tags: try self.tags().map(\.name), reviews: reviews, limits: try dayLimits(),
                            exportedAt: clock()).encoded()
    }

    /// Adds the tasks, projects and tags of an export document, and the reviews of days this
    /// store has not reviewed, all in one save: everything, or (when it throws) nothing.
    ///
    /// Names are trimmed and checked as ``add(name:_:)`` checks them; creation dates, due
    /// dates, completion, priorities, reminders and each task's place in the day plan (its day,
    /// or the backlog) are kept. A project or tag the store already has (by name, without
    /// regard to case) is used, not made again. The document's daily limits are taken only by a
    /// store restored from it, one that had no task and no day. In a version 1 document,
    /// hashtags in names and notes (`Buy milk #errands`) become tags, as when a version 1 store
    /// is upgraded.
    ///
    /// ```swift
    /// let result = try store.importDocument(data)            // duplicates skipped
    /// print("\(result.imported) imported, \(result.skipped) skipped")
    /// ```
    ///
    /// - Throws: `PersistError` `.typeMismatch` when `data` is not a task export,
    ///   `.validation` naming the task, project or tag whose name is bad, or any save error.
    @discardableResult
    public func importDocument(_ data: Data, duplicates: DuplicatePolicy = .skip) throws -> ImportResult {
        try importDocument(try TaskDocument(data: data), duplicates: duplicates)
    }

    /// Adds the tasks, projects and tags of a document read already; see
    /// ``importDocument(_:duplicates:)-(Data,_)``.
    ///
    /// - Throws: as ``importDocument(_:duplicates:)-(Data,_)``; a bad name is
    ///   `not a valid task export (task 2: a task's name cannot be empty)`, as
    ///   ``TaskDocument/validate()`` says it.
    /// `progress` is called after each task is added (before the one save), with how many
    /// of the document's tasks are done.
    @discardableResult
    public func importDocument(_ document: TaskDocument, duplicates: DuplicatePolicy = .skip,
                               progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> ImportResult {
        try document.validate()
        // A restore: into a store with no task and no day, the limits come too.
        let restores = try count() == 0 && context.count(for: FetchRequest<Day>()) == 0
        return try importRecords(document.importedRecords, projects: document.projects, tags: document.tags,
                                 reviews: document.reviews, limits: restores ? document.limits : nil, duplicates: duplicates,
                                 progress: progress)
    }

    /// Adds tasks from records, in one save; see ``importDocument(_:duplicates:)-(Data,_)``.
    ///
    /// - Throws: `PersistError` `.validation` naming the record (or the project or
    ///   tag), counted from 1, whose name is bad (`task 2: a task's name cannot be empty`), or
    ///   any save error; nothing is added then.
    @discardableResult
    public func importRecords(_ records: [TaskRecord], projects: [String] = [], tags: [String] = [],
                              duplicates: DuplicatePolicy = .skip,
                              progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> ImportResult {
        try importRecords(records, projects: projects, tags: tags, reviews: [], limits: nil, duplicates: duplicates, progress: progress)
    }

    /// Adds tasks, projects and tags, the reviews of days not reviewed here, and the limits
    /// when given, in one save.
    private func importRecords(_ records: [TaskRecord], projects: [String], tags: [String], reviews: [DayReview],
                               limits: DayLimits?, duplicates: DuplicatePolicy,
                               progress: ((_ done: Int, _ total: Int) -> Void)?) throws -> ImportResult {
        let cleaned = try TaskStore.cleanRecords(records)
        let projectNames = try TaskStore.cleanLabels(projects, kind: .project)
        let tagNames = try TaskStore.cleanLabels(tags, kind: .tag)
        struct Identity: Hashable {
            let name: String
            let createdAt: Date
        }
        var existing = Set<Identity>()
        if duplicates == .skip {
            existing = Set(try self.tasks().map { Identity(name: $0.name, createdAt: $0.createdAt) })
        }
        var result = ImportResult(imported: 0, skipped: 0)
        try saving {
            var labels = ImportCache(store: self)
            for name in projectNames { _ = try labels.project(name) }
            for name in tagNames { _ = try labels.tag(name) }
            for record in cleaned {
                defer { progress?(result.imported + result.skipped, cleaned.count) }
                if existing.contains(Identity(name: record.name, createdAt: record.createdAt)) {
                    result.skipped += 1
                    continue
                }
                try insert(record, labels: &labels)
                result.imported += 1
            }
            labels.assignTags()
            for review in reviews {
                let record = try labels.day(review.day)
                guard !record.isReviewed else { continue }   // the store's own review stands
                record.reviewedAt = TaskDateCoding.normalized(review.reviewedAt)
                let stats = DayStats(context: context)
                stats.planned = review.planned
                stats.completed = review.completed
                stats.backlogged = review.backlogged
                stats.carried = review.carried
                stats.projectCounts = ProjectCompletionList(review.projects)
                record.stats = stats
            }
            if let limits { (try storeInfo() ?? StoreInfo(context: context)).limits = limits }
        }
        return result
    }

    private func insert(_ record: TaskRecord, labels: inout ImportCache) throws {
        let task = TaskItem(context: context)
        task.name = record.name
        task.notes = record.notes
        switch record.due {
        case .day(let day)?:
            task.due = day.storedInstant
            task.dueIsDay = true
        case .time(let instant)?:
            task.due = instant
        case nil:
            break
        }
        task.isComplete = record.isComplete
        task.createdAt = record.createdAt
        task.priority = record.priority
        task.completedAt = record.isComplete ? record.completedAt : nil
        task.remindAt = record.remindAt
        task.project = try record.project.map { try labels.project($0) }
        for name in record.tags { try labels.add(task, toTag: name) }
        task.day = try record.plannedFor.map { try labels.day($0) }
        task.backloggedAt = record.backloggedAt
        for attachment in record.attachments { _ = insertAttachment(attachment, into: task) }
    }

    /// The records trimmed, normalized and checked.
    static func cleanRecords(_ records: [TaskRecord]) throws -> [TaskRecord] {
        var cleaned: [TaskRecord] = []
        for (index, record) in records.enumerated() {
            var record = record
            record.name = TaskStore.cleanName(record.name)
            record.notes = TaskStore.cleanNotes(record.notes)
            if case .time(let instant)? = record.due { record.due = .time(TaskDateCoding.normalized(instant)) }
            record.createdAt = TaskDateCoding.normalized(record.createdAt)
            record.completedAt = record.completedAt.map(TaskDateCoding.normalized)
            record.remindAt = record.remindAt.map(TaskDateCoding.normalized)
            // On a plan or done, a task is not in the backlog.
            record.backloggedAt = record.plannedFor == nil && !record.isComplete ? record.backloggedAt.map(TaskDateCoding.normalized) : nil
            do {
                try TaskItem.validate(name: record.name)
                if let project = record.project {
                    record.project = LabelName.clean(project, kind: .project)
                    try LabelName.validate(record.project ?? "", kind: .project)
                }
                record.tags = try cleanLabels(record.tags, kind: .tag, numbered: false)
                record.attachments = try cleanAttachments(record.attachments)
            } catch var error as PersistError {
                error.message = "task \(index + 1): " + error.message
                throw error
            }
            cleaned.append(record)
        }
        return cleaned
    }

    /// The attachments checked as ``attach(_:fileName:mediaType:to:)`` checks them, their
    /// creation times kept to the millisecond.
    static func cleanAttachments(_ attachments: [AttachmentRecord]) throws -> [AttachmentRecord] {
        try attachments.enumerated().map { index, attachment in
            var attachment = attachment
            attachment.createdAt = TaskDateCoding.normalized(attachment.createdAt)
            do {
                try Attachment.validate(fileName: attachment.fileName)
                try Attachment.validate(mediaType: attachment.mediaType)
                try Attachment.validate(size: attachment.contents.count, fileName: attachment.fileName)
            } catch var error as PersistError {
                error.message = "attachment \(index + 1): " + error.message
                throw error
            }
            return attachment
        }
    }

    /// The project or tag names trimmed and checked.
    static func cleanLabels(_ names: [String], kind: LabelName.Kind, numbered: Bool = true) throws -> [String] {
        try names.enumerated().map { index, name in
            let clean = LabelName.clean(name, kind: kind)
            do {
                try LabelName.validate(clean, kind: kind)
            } catch var error as PersistError where numbered {
                error.message = "\(kind.noun) \(index + 1): " + error.message
                throw error
            }
            return clean
        }
    }
}

/// Projects and tags by lower-cased name, and days, during one import: each found or made once;
/// the tasks each tag gets are collected and given to it at the end, in one assignment per tag
/// (assigning each task's tags in turn costs time quadratic in a tag's tasks).
private struct ImportCache {
    let store: TaskStore
    var projects: [String: Project] = [:]
    var tags: [String: Tag] = [:]
    var tagged: [String: [TaskItem]] = [:]
    var days: [CalendarDay: Day] = [:]

    /// The record of `day`, found or made.
    mutating func day(_ day: CalendarDay) throws -> Day {
        if let known = days[day] { return known }
        let record = try store.dayRecord(day)
        days[day] = record
        return record
    }

    init(store: TaskStore) {
        self.store = store
    }

    /// Never thrown: a look-up that may create always finds.
    static func missing(_ name: String) -> PersistError {
        PersistError(.objectNotFound, "\"\(name)\" could not be made")
    }

    mutating func project(_ name: String) throws -> Project {
        if let known = projects[name.lowercased()] { return known }
        guard let project = try store.projectNamed(name, creating: true) else { throw ImportCache.missing(name) }
        projects[name.lowercased()] = project
        return project
    }

    /// Notes that `task` gets the tag `name`, for ``assignTags()``.
    mutating func add(_ task: TaskItem, toTag name: String) throws {
        _ = try tag(name)
        tagged[name.lowercased(), default: []].append(task)
    }

    /// Gives every tag the tasks noted for it.
    func assignTags() {
        for (key, tasks) in tagged {
            guard let tag = tags[key] else { continue }
            tag.tasks = tag.tasks.union(tasks)
        }
    }

    mutating func tag(_ name: String) throws -> Tag {
        if let known = tags[name.lowercased()] { return known }
        guard let tag = try store.tagNamed(name, creating: true) else { throw ImportCache.missing(name) }
        tags[name.lowercased()] = tag
        return tag
    }
}
