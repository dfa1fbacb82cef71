#include <sqlite3.h>

// sqlite3_db_config is variadic, which Swift cannot call: one wrapper per option used.
static inline int persistkit_set_no_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}

// SQLite's fallback reads a double-quoted name it cannot find as a string literal, so a
// missing column would read back as its own name: off for statements (DML) and schema (DDL).
static inline int persistkit_set_double_quoted_strings(sqlite3 *db, int on) {
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, on, (int *)0);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, on, (int *)0);
}

// Defensive mode: no SQL can corrupt the file on purpose (writable_schema, sqlite_dbpage
// writes, journal_mode=OFF...). Untrusted schema: functions in a store's schema (views,
// triggers, CHECK, DEFAULT, index expressions) may only be those marked innocuous.
static inline int persistkit_set_defensive(sqlite3 *db) {
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
}

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type persistkit_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
