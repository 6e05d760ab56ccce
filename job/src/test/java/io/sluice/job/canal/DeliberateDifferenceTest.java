package io.sluice.job.canal;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** canal-diff's documented differences are the documentation's table, row for row. */
class DeliberateDifferenceTest {

    private static final String SECTION = "## Where Sluice differs from Canal, on purpose";

    @Test
    void mirrorsTheDocumentedTable() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("../docs/canal-compatibility.md"));
        List<String> rows = new ArrayList<>();
        boolean inSection = false;
        for (String line : lines) {
            if (line.startsWith("## ")) {
                inSection = line.equals(SECTION);
            } else if (inSection && line.startsWith("| ") && !line.startsWith("| |")) {
                rows.add(line.split("\\|")[1].trim());
            }
        }
        assertThat(rows)
                .containsExactlyElementsOf(
                        Arrays.stream(DeliberateDifference.values())
                                .map(d -> d.docRow)
                                .collect(Collectors.toList()));
    }

    @Test
    void classifiesValues() {
        assertThat(RowComparison.valueDifference("decimal(10,2)", "10.0", "10.00"))
                .isEqualTo(DeliberateDifference.DECIMAL_SCALE);
        assertThat(RowComparison.valueDifference("decimal(10,2)", "10.1", "10.00")).isNull();
        assertThat(RowComparison.valueDifference("varchar(16)", "caf\ufffd", "café"))
                .isEqualTo(DeliberateDifference.LATIN1_TEXT);
        assertThat(RowComparison.valueDifference("varchar(16)", "cafe", "café")).isNull();
        assertThat(
                        RowComparison.valueDifference(
                                "timestamp", "2024-03-01 20:00:00", "2024-03-01 12:00:00"))
                .isEqualTo(DeliberateDifference.TIMESTAMP_ZONE);
        assertThat(
                        RowComparison.valueDifference(
                                "timestamp", "2024-03-01 20:00:07", "2024-03-01 12:00:00"))
                .isNull();
        assertThat(
                        RowComparison.valueDifference(
                                "datetime", "2024-03-01 20:00:00", "2024-03-01 12:00:00"))
                .isNull();
    }
}
