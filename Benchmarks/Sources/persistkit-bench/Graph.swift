import Foundation
import GRDB
import PersistKit

// The graph workloads' data: the generated tasks, each in one of `objectCount / 100` projects
// (1,000 at 100,000 tasks). The same in every variant.

/// A project of the graph workloads.
final class BenchProject: ManagedObject {
    override class var entityName: String { "Project" }
    @Attribute var name: String
    @Relationship var tasks: Set<LinkedTask>
}

/// A task with a project: `BenchTask`'s attributes and a to-one.
final class LinkedTask: ManagedObject {
    override class var entityName: String { "LinkedTask" }
    @Attribute var name: String
    @Attribute var notes: String?
    @Attribute var due: Date?
    @Attribute var isComplete = false
    @Relationship(inverse: \BenchProject.tasks) var project: BenchProject?
}

enum GraphData {
    /// How many projects the tasks are spread over.
    static func projectCount(_ env: Environment) -> Int { max(1, env.tasks.count / 100) }

    static func projectName(_ index: Int) -> String { "project" + String(index) }

    /// The project (0-based index) task `index` (0-based) starts in: scattered, not in runs.
    static func initialProject(ofTask index: Int, projects: Int) -> Int { (index &* 7_919) % projects }

    /// The project `relink` round `round` moves task `index` to: a different one every round.
    static func relinkedProject(ofTask index: Int, round: Int, projects: Int) -> Int {
        (initialProject(ofTask: index, projects: projects) + round + 1) % projects
    }

    /// The tasks `relink` moves (0-based indices): the ones `update` changes.
    static func relinkIndices(_ env: Environment) -> [Int] { env.updateIDs.map { Int($0) - 1 } }

    /// The relink check: how many tasks the first project holds.
    static let firstProjectCount = "SELECT COUNT(*) FROM task JOIN project ON project.id = task.projectId WHERE project.name = 'project0'"
}

enum GraphSQL {
    static let createProjects = "CREATE TABLE project (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"
    /// The plain task table with a foreign key to its project, indexed (as PersistKit's is).
    static let createTasks = """
        CREATE TABLE task (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            notes TEXT,
            due REAL,
            isComplete INTEGER NOT NULL DEFAULT 0,
            projectId INTEGER NOT NULL REFERENCES project(id))
        """
    static let indexTasks = "CREATE INDEX task_projectId ON task(projectId)"
    static let insertProject = "INSERT INTO project (id, name) VALUES (?, ?)"
    static let insertTask = "INSERT INTO task (name, notes, due, isComplete, projectId) VALUES (?, ?, ?, ?, ?)"
    /// Every task with its project's name, sorted as `fetch` sorts (`isComplete`, then `due`
    /// with nils last, ties by primary key). `NOT INDEXED`: SQLite 3.40 otherwise walks the
    /// tasks through the `projectId` index (a random read per row), a third slower than
    /// scanning the table and sorting.
    static let fetchWithProjects = """
        SELECT task.id, task.name, task.notes, task.due, task.isComplete, project.name
        FROM task NOT INDEXED JOIN project ON project.id = task.projectId
        ORDER BY task.isComplete, task.due NULLS LAST, task.id
        """
    static let relink = "UPDATE task SET projectId = ? WHERE id = ?"
}

extension RawDatabase {
    /// Creates the graph tables and fills them (store setup, not timed). Foreign keys are
    /// enforced, as PersistKit's and GRDB's are.
    static func populateGraph(url: URL, env: Environment) throws -> RawDatabase {
        let db = try RawDatabase(url: url)
        try db.execute("PRAGMA foreign_keys = ON")
        for sql in [GraphSQL.createProjects, GraphSQL.createTasks, GraphSQL.indexTasks] { try db.execute(sql) }
        let projects = GraphData.projectCount(env)
        try db.execute("BEGIN IMMEDIATE")
        let insertProject = try db.prepare(GraphSQL.insertProject)
        for index in 0..<projects {
            insertProject.reset()
            insertProject.bind(Int64(index + 1), at: 1)
            insertProject.bind(GraphData.projectName(index), at: 2)
            try insertProject.stepDone()
        }
        let insertTask = try db.prepare(GraphSQL.insertTask)
        for (index, task) in env.tasks.enumerated() {
            insertTask.reset()
            insertTask.bind(task.name, at: 1)
            insertTask.bind(task.notes, at: 2)
            insertTask.bind(task.due, at: 3)
            insertTask.bind(task.isComplete, at: 4)
            insertTask.bind(Int64(GraphData.initialProject(ofTask: index, projects: projects) + 1), at: 5)
            try insertTask.stepDone()
        }
        try db.execute("COMMIT")
        return db
    }
}

extension PersistKitBench {
    static func makeGraphModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [BenchProject.self, LinkedTask.self])
    }

    /// A container whose store holds the projects and the tasks in them (setup, not timed).
    static func populatedGraphContainer(_ url: URL, env: Environment) throws -> PersistentContainer {
        let container = try openContainer(url, model: try makeGraphModel())
        let context = container.newContext()
        let projects = (0..<GraphData.projectCount(env)).map { index in
            let project = BenchProject(context: context)
            project.name = GraphData.projectName(index)
            return project
        }
        for (index, data) in env.tasks.enumerated() {
            let task = LinkedTask(context: context)
            task.name = data.name
            task.notes = data.notes
            task.due = data.due.map { Date(timeIntervalSince1970: $0) }
            task.isComplete = data.isComplete
            task.project = projects[GraphData.initialProject(ofTask: index, projects: projects.count)]
        }
        try context.save()
        return container
    }
}

// MARK: - GRDB records and associations

/// A project as a GRDB user writes it.
struct ProjectRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "project"
    var id: Int64?
    var name: String
}

/// A task with its foreign key, and its project as a GRDB association.
struct LinkedTaskRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "task"
    static var databaseDateDecodingStrategy: DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
    static var databaseDateEncodingStrategy: DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    static let project = belongsTo(ProjectRecord.self)

    var id: Int64?
    var name: String
    var notes: String?
    var due: Date?
    var isComplete: Bool
    var projectId: Int64
}

/// What `LinkedTaskRecord.including(required: LinkedTaskRecord.project)` decodes into: the
/// task's columns as the base record, the project from the association's scope (GRDB's
/// documented pattern).
struct TaskWithProject: Decodable, FetchableRecord {
    var task: LinkedTaskRecord
    var project: ProjectRecord
}

/// GRDB's fastest path for the join: a cached statement and `init(row:)` by column index.
struct FastTaskWithProject: FetchableRecord {
    var task: FastTask
    var projectName: String

    init(row: Row) {
        task = FastTask(row: row)
        projectName = row[5]
    }
}

extension Digest {
    /// Mixes in a related object's name (its length: reading it is what counts).
    @inline(__always)
    mutating func add(related name: String) {
        value = (value ^ UInt64(name.utf8.count)) &* 0x100_0000_01b3
    }

    @inline(__always)
    mutating func add(_ task: LinkedTask) {
        add(name: task.name, notes: task.notes, due: task.due?.timeIntervalSince1970, isComplete: task.isComplete)
    }

    @inline(__always)
    mutating func add(_ task: LinkedTaskRecord) {
        add(name: task.name, notes: task.notes, due: task.due?.timeIntervalSince1970, isComplete: task.isComplete)
    }
}
