package io.sluice.job.sql;

import org.apache.flink.annotation.PublicEvolving;

/** A script statement that failed, named with its position, first line and the reason. */
@PublicEvolving
public final class SqlScriptException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SqlScriptException(String message) {
        super(message);
    }

    public SqlScriptException(SqlStatement statement, String rule, Throwable cause) {
        super(
                "SQL "
                        + statement.describe()
                        + " failed: "
                        + rule
                        + (cause == null ? "" : ": " + reasons(cause)),
                cause);
    }

    /** Every message of the cause chain, outermost first, each once. */
    private static String reasons(Throwable cause) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && !message.isBlank() && text.indexOf(message) < 0) {
                if (text.length() > 0) {
                    text.append(" <- ");
                }
                text.append(message.strip());
            }
        }
        return text.toString();
    }
}
