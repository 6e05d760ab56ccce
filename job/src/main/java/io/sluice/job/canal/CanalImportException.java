package io.sluice.job.canal;

import java.util.List;

/** Every Canal key an import cannot translate, one line each. */
final class CanalImportException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    CanalImportException(List<String> problems) {
        super(
                problems.size()
                        + " Canal setting(s) cannot be translated:\n  "
                        + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    List<String> problems() {
        return problems;
    }
}
