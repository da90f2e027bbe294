package mirror

import (
	"strings"

	sqlite "modernc.org/sqlite"
)

// mirror query is read-only by construction, in three layers, each of
// which refuses before anything runs:
//   - the text holds exactly one statement (SQLite would run every
//     statement of a script, the earlier ones before a later one fails);
//   - that statement starts with a verb that reads (VACUUM and REINDEX are
//     never shown to SQLite's authorizer, so the verb is checked first);
//   - SQLite's authorizer, consulted while the statement is compiled,
//     allows reading tables, read-only functions and pragmas that only
//     report, and denies everything else (writes, ATTACH, DETACH,
//     transactions, pragmas given a value, load_extension).
//
// The connection is also opened read-only with query_only, and may attach
// no database at all (SQLITE_LIMIT_ATTACHED 0), so that a file named by an
// ATTACH or VACUUM INTO is never created even if a layer above failed.

// readingVerbs are the statements mirror query runs.
var readingVerbs = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "PRAGMA": true, "EXPLAIN": true}

// reportingPragmas only report; given a value, most pragmas set it. The
// ones in tableArgPragmas take a table (or a count) as their argument.
var (
	reportingPragmas = setOf("table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
		"foreign_key_list", "foreign_key_check", "integrity_check", "quick_check", "database_list", "collation_list",
		"function_list", "module_list", "pragma_list", "compile_options", "user_version", "schema_version",
		"data_version", "application_id", "page_count", "page_size", "freelist_count", "encoding", "journal_mode",
		"auto_vacuum", "query_only")
	tableArgPragmas = setOf("table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
		"foreign_key_list", "foreign_key_check", "integrity_check", "quick_check")
	// sideEffectFunctions are SQL functions that change the process or the
	// disk rather than compute a value.
	sideEffectFunctions = setOf("load_extension", "fts3_tokenizer")
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// readOnlyPolicy decides one action SQLite's authorizer is asked about:
// "" allows it, else it names what is refused ("DELETE", "ATTACH",
// "PRAGMA query_only = 0", "load_extension()").
func readOnlyPolicy(action sqlite.AuthorizerActionCode, arg1, arg2 string) string {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthRecursive:
		return ""
	case sqlite.AuthFunction:
		if sideEffectFunctions[strings.ToLower(arg2)] {
			return strings.ToLower(arg2) + "()"
		}
		return ""
	case sqlite.AuthPragma:
		return pragmaPolicy(strings.ToLower(arg1), arg2)
	case sqlite.AuthTransaction:
		return strings.ToUpper(arg1)
	}
	if verb, ok := actionVerbs[action]; ok {
		return verb
	}
	return "this statement"
}

func pragmaPolicy(name, value string) string {
	switch {
	case !reportingPragmas[name]:
		return "PRAGMA " + name
	case value != "" && !tableArgPragmas[name]:
		return "PRAGMA " + name + " = " + value
	}
	return ""
}

// actionVerbs name the actions that change something, as the SQL says them.
var actionVerbs = map[sqlite.AuthorizerActionCode]string{
	sqlite.AuthInsert: "INSERT", sqlite.AuthUpdate: "UPDATE", sqlite.AuthDelete: "DELETE",
	sqlite.AuthAttach: "ATTACH", sqlite.AuthDetach: "DETACH", sqlite.AuthSavepoint: "SAVEPOINT",
	sqlite.AuthAlterTable: "ALTER TABLE", sqlite.AuthReindex: "REINDEX", sqlite.AuthAnalyze: "ANALYZE",
	sqlite.AuthCreateIndex: "CREATE INDEX", sqlite.AuthCreateTable: "CREATE TABLE", sqlite.AuthCreateTrigger: "CREATE TRIGGER",
	sqlite.AuthCreateView: "CREATE VIEW", sqlite.AuthCreateVTable: "CREATE VIRTUAL TABLE",
	sqlite.AuthCreateTempIndex: "CREATE TEMP INDEX", sqlite.AuthCreateTempTable: "CREATE TEMP TABLE",
	sqlite.AuthCreateTempTrigger: "CREATE TEMP TRIGGER", sqlite.AuthCreateTempView: "CREATE TEMP VIEW",
	sqlite.AuthDropIndex: "DROP INDEX", sqlite.AuthDropTable: "DROP TABLE", sqlite.AuthDropTrigger: "DROP TRIGGER",
	sqlite.AuthDropView: "DROP VIEW", sqlite.AuthDropVTable: "DROP VIRTUAL TABLE",
	sqlite.AuthDropTempIndex: "DROP TEMP INDEX", sqlite.AuthDropTempTable: "DROP TEMP TABLE",
	sqlite.AuthDropTempTrigger: "DROP TEMP TRIGGER", sqlite.AuthDropTempView: "DROP TEMP VIEW",
}

// splitStatements cuts SQL text into its statements as SQLite's tokenizer
// would: at each ";" outside a string, a quoted name and a comment. Pieces
// that hold only space and comments are dropped; each kept piece is
// trimmed of the space and comments that lead it, and of trailing space. (A CREATE TRIGGER body holds ";" too: cut there, its
// first piece is refused all the same, for its verb.)
func splitStatements(sql string) []string {
	var out []string
	start := 0
	for i := 0; i < len(sql); {
		switch c := sql[i]; {
		case c == ';':
			out = appendStatement(out, sql[start:i])
			i++
			start = i
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(sql, i, c)
		case c == '[':
			i = skipUntil(sql, i+1, "]")
		case strings.HasPrefix(sql[i:], "--"):
			i = skipUntil(sql, i+2, "\n")
		case strings.HasPrefix(sql[i:], "/*"):
			i = skipUntil(sql, i+2, "*/")
		default:
			i++
		}
	}
	return appendStatement(out, sql[start:])
}

func appendStatement(out []string, s string) []string {
	if s = strings.TrimSpace(stripComments(s)); s == "" {
		return out
	}
	return append(out, s)
}

// skipQuoted returns the index after the quoted run starting at i; a
// doubled quote inside it is the quote itself.
func skipQuoted(s string, i int, q byte) int {
	for j := i + 1; j < len(s); j++ {
		if s[j] != q {
			continue
		}
		if j+1 < len(s) && s[j+1] == q {
			j++
			continue
		}
		return j + 1
	}
	return len(s)
}

// skipUntil returns the index after the first end at or after i, or the
// end of s (an unterminated comment runs to the end, as in SQLite).
func skipUntil(s string, i int, end string) int {
	if k := strings.Index(s[i:], end); k >= 0 {
		return i + k + len(end)
	}
	return len(s)
}

// stripComments drops the space and comments that lead s.
func stripComments(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n\f")
		switch {
		case strings.HasPrefix(s, "--"):
			s = s[skipUntil(s, 2, "\n"):]
		case strings.HasPrefix(s, "/*"):
			s = s[skipUntil(s, 2, "*/"):]
		default:
			return s
		}
	}
}

// leadingWord is a statement's first keyword, upper case ("" when it
// starts with something else).
func leadingWord(stmt string) string {
	s := stripComments(stmt)
	end := 0
	for end < len(s) && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= 'A' && s[end] <= 'Z' || s[end] == '_') {
		end++
	}
	return strings.ToUpper(s[:end])
}
