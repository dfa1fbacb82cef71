import Foundation

/// The PostgreSQL side: one schema (`persistkit_sync` unless configured) that PersistKitSync
/// creates and migrates itself, holding every space.
///
/// - `spaces`: one row per space: its server sequence (the last change's number), the model
///   version, hash and document its stores must have, and its delete policy.
/// - `members`: which PostgreSQL roles may read and write which space. Row-level security on
///   every table keeps a role to its spaces' rows.
/// - `objects`: the current state of every object and link of every space, one row each, as
///   JSONB (`fields`, and `clocks`: each key's hybrid-clock reading), with the sequence of its
///   last change (`seq`): a pull reads the rows after its last sequence.
/// - `changes`: the change log, one row per object a push changed (what it changed, who
///   pushed it, when), numbered by the same sequence.
/// - `uniques`: the values of each uniqueness constraint held by live objects, so that a push
///   finds a collision with one index lookup.
///
/// Why JSONB and not a table per entity: the model is the clients' (versioned, migrated by
/// them); per-entity tables would need the server migrated in step with every model change,
/// and a second column per key for its clock. One generic shape keeps the server unchanged
/// across model versions, makes row-level security one policy per table, and a pull one
/// indexed range scan. The model document is kept with the space for tools that read it.
struct ServerSchema {
    /// The version of the schema this code creates; older schemas are migrated by their owner.
    static let version = 1

    let name: String

    /// The schema, quoted.
    var quoted: String { Self.quote(name) }
    /// The group role every client role is granted (`<schema>_client`).
    var clientRole: String { name + "_client" }

    func table(_ table: String) -> String { quoted + "." + Self.quote(table) }

    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The channel a space's pushes notify (`LISTEN`): the schema's name and an MD5 of the
    /// space, so that a space's name is not broadcast to every role on the server.
    func channelExpression(space parameter: String) -> String {
        "'\(name.replacingOccurrences(of: "'", with: "''"))_' || md5(\(parameter))"
    }

    /// The statements that create the schema from nothing, in order (run as the role that will
    /// own it; it needs CREATE on the database and CREATEROLE for the client role).
    var installStatements: [String] {
        let s = quoted, client = Self.quote(clientRole)
        let member = "space IN (SELECT m.space FROM \(table("members")) m WHERE m.role = current_user)"
        return [
            "CREATE SCHEMA IF NOT EXISTS \(s)",
            "CREATE TABLE IF NOT EXISTS \(table("info")) (key text PRIMARY KEY, value text NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS \(table("spaces")) (
                id text PRIMARY KEY,
                seq bigint NOT NULL DEFAULT 0,
                model_version integer NOT NULL,
                model_hash text NOT NULL,
                model_document jsonb,
                delete_policy text NOT NULL,
                created timestamptz NOT NULL DEFAULT now())
            """,
            """
            CREATE TABLE IF NOT EXISTS \(table("members")) (
                space text NOT NULL REFERENCES \(table("spaces")) (id) ON DELETE CASCADE,
                role name NOT NULL,
                PRIMARY KEY (space, role))
            """,
            """
            CREATE TABLE IF NOT EXISTS \(table("objects")) (
                space text NOT NULL REFERENCES \(table("spaces")) (id) ON DELETE CASCADE,
                id text NOT NULL,
                entity text NOT NULL,
                seq bigint NOT NULL,
                fields jsonb NOT NULL,
                clocks jsonb NOT NULL,
                deleted text,
                merged_into text,
                owner text,
                target text,
                PRIMARY KEY (space, id))
            """,
            "CREATE INDEX IF NOT EXISTS objects_seq ON \(table("objects")) (space, seq)",
            "CREATE INDEX IF NOT EXISTS objects_owner ON \(table("objects")) (space, owner) WHERE owner IS NOT NULL",
            "CREATE INDEX IF NOT EXISTS objects_target ON \(table("objects")) (space, target) WHERE target IS NOT NULL",
            """
            CREATE TABLE IF NOT EXISTS \(table("changes")) (
                space text NOT NULL REFERENCES \(table("spaces")) (id) ON DELETE CASCADE,
                seq bigint NOT NULL,
                client text NOT NULL,
                id text NOT NULL,
                entity text NOT NULL,
                fields jsonb NOT NULL,
                clocks jsonb NOT NULL,
                deleted text,
                merged_into text,
                at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (space, seq))
            """,
            """
            CREATE TABLE IF NOT EXISTS \(table("uniques")) (
                space text NOT NULL REFERENCES \(table("spaces")) (id) ON DELETE CASCADE,
                entity text NOT NULL,
                keys text NOT NULL,
                value text NOT NULL,
                id text NOT NULL,
                PRIMARY KEY (space, entity, keys, value))
            """,
            // Whether a space has members, seen past row-level security (a role sees only its
            // own memberships): a role may join a space only while nobody has.
            """
            CREATE OR REPLACE FUNCTION \(s).space_has_members(space_id text) RETURNS boolean
                LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
                AS $$ SELECT EXISTS (SELECT 1 FROM \(table("members")) WHERE space = space_id) $$
            """,
            "ALTER TABLE \(table("spaces")) ENABLE ROW LEVEL SECURITY",
            "ALTER TABLE \(table("members")) ENABLE ROW LEVEL SECURITY",
            "ALTER TABLE \(table("objects")) ENABLE ROW LEVEL SECURITY",
            "ALTER TABLE \(table("changes")) ENABLE ROW LEVEL SECURITY",
            "ALTER TABLE \(table("uniques")) ENABLE ROW LEVEL SECURITY",
            "DROP POLICY IF EXISTS member ON \(table("spaces"))",
            "CREATE POLICY member ON \(table("spaces")) USING (id IN (SELECT m.space FROM \(table("members")) m WHERE m.role = current_user))",
            "DROP POLICY IF EXISTS create_space ON \(table("spaces"))",
            // Any client may create a space that does not exist yet (the key refuses one that does).
            "CREATE POLICY create_space ON \(table("spaces")) FOR INSERT WITH CHECK (true)",
            "DROP POLICY IF EXISTS own ON \(table("members"))",
            "CREATE POLICY own ON \(table("members")) FOR SELECT USING (role = current_user)",
            "DROP POLICY IF EXISTS join_new ON \(table("members"))",
            "CREATE POLICY join_new ON \(table("members")) FOR INSERT WITH CHECK (role = current_user AND NOT \(s).space_has_members(space))",
            "DROP POLICY IF EXISTS member ON \(table("objects"))",
            "CREATE POLICY member ON \(table("objects")) USING (\(member))",
            "DROP POLICY IF EXISTS member ON \(table("changes"))",
            "CREATE POLICY member ON \(table("changes")) USING (\(member))",
            "DROP POLICY IF EXISTS member ON \(table("uniques"))",
            "CREATE POLICY member ON \(table("uniques")) USING (\(member))",
            """
            DO $$ BEGIN
                IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(clientRole.replacingOccurrences(of: "'", with: "''"))') THEN
                    CREATE ROLE \(client) NOLOGIN;
                END IF;
            END $$
            """,
            "GRANT USAGE ON SCHEMA \(s) TO \(client)",
            "GRANT SELECT ON \(table("info")) TO \(client)",
            "GRANT SELECT, INSERT, UPDATE ON \(table("spaces")) TO \(client)",
            "GRANT SELECT, INSERT ON \(table("members")) TO \(client)",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON \(table("objects")), \(table("changes")), \(table("uniques")) TO \(client)",
            "GRANT EXECUTE ON FUNCTION \(s).space_has_members(text) TO \(client)",
            "INSERT INTO \(table("info")) (key, value) VALUES ('schemaVersion', '\(Self.version)') "
                + "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        ]
    }
}
