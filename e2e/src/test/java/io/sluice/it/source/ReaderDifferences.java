package io.sluice.it.source;

import org.apache.flink.api.common.functions.util.ListCollector;
import org.apache.flink.util.Collector;

import io.sluice.functions.normalize.PrimaryKeyChangeSplitter;
import io.sluice.it.source.ChangeEventDiff.Difference;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where the Flink CDC reader and Sluice's differ on purpose, for {@link ReaderDifferentialITCase}:
 * each value Sluice's reader corrects, each bookkeeping field it fills differently and each
 * statement only it writes, with the docs that say so.
 */
final class ReaderDifferences {

    private ReaderDifferences() {}

    static final String KNOWN_LIMITATIONS =
            "value-rendering.md#known-limitations-debezium-198-behaviour-sluice-cannot-undo";

    /** A value where the readers differ on purpose: what each writes, and where it is told. */
    record Correction(String column, String flinkCdc, String sluice, String anchor) {
        boolean covers(Difference difference) {
            return difference.column().equals(column)
                    && !difference.field().startsWith("updated ")
                    && Objects.equals(difference.left(), flinkCdc)
                    && Objects.equals(difference.right(), sluice);
        }
    }

    /**
     * The corrections of Sluice's reader that this binlog shows (docs/value-rendering.md, "Known
     * limitations", the "New reader" notes): zero and partly-zero dates, which Debezium makes NULL,
     * and negative TIMEs whose last stored unit is zero, which Debezium decodes wrongly.
     */
    static final List<Correction> CORRECTIONS =
            List.of(
                    new Correction("c_date", null, "0000-00-00", KNOWN_LIMITATIONS),
                    new Correction("c_date", null, "2020-00-00", KNOWN_LIMITATIONS),
                    new Correction("c_datetime", null, "0000-00-00 00:00:00", KNOWN_LIMITATIONS),
                    new Correction(
                            "c_datetime3", null, "0000-00-00 00:00:00.000", KNOWN_LIMITATIONS),
                    new Correction(
                            "c_datetime6", null, "2020-00-00 00:00:00.000000", KNOWN_LIMITATIONS),
                    new Correction(
                            "c_time6", "-838:59:59.048576", "-838:59:59.000000", KNOWN_LIMITATIONS),
                    new Correction(
                            "c_time6", "-01:04:04.048576", "-01:00:00.000000", KNOWN_LIMITATIONS),
                    new Correction("c_time", "-01:04:03", "-01:00:00", KNOWN_LIMITATIONS),
                    new Correction("c_time", "-12:34:03", "-12:34:00", KNOWN_LIMITATIONS));

    /**
     * A bookkeeping field where the readers differ: the Flink CDC reader's value, the form of
     * Sluice's, and why.
     */
    record Bookkeeping(String field, String flinkCdc, Pattern sluice, String why) {
        boolean covers(Difference difference) {
            return difference.field().equals(field)
                    && Objects.equals(difference.left(), flinkCdc)
                    && difference.right() != null
                    && sluice.matcher(difference.right()).matches();
        }
    }

    private static final Pattern MARIADB_GTID = Pattern.compile("\\d+-\\d+-\\d+");

    /**
     * Debezium 1.9 does not track MariaDB GTIDs; Sluice's reader gives each event its transaction's
     * (domain-server-seq), docs/value-rendering.md "GTIDs on MariaDB".
     */
    static final List<Bookkeeping> BOOKKEEPING =
            List.of(
                    new Bookkeeping(
                            "gtid", "", MARIADB_GTID, "Debezium 1.9 tracks no MariaDB GTIDs"),
                    new Bookkeeping(
                            "transactionId",
                            "",
                            MARIADB_GTID,
                            "Debezium 1.9 tracks no MariaDB GTIDs"));

    /** A statement only Sluice's reader writes, because Debezium does not record it. */
    record OnlySluice(ChangeType type, String sqlStart, String anchor) {
        boolean covers(ChangeEvent event) {
            return event.type() == type && event.sql().startsWith(sqlStart);
        }
    }

    /**
     * CREATE INDEX and DROP INDEX, which Debezium 1.9 does not record (docs/value-rendering.md,
     * "Only DDL that Debezium records reaches Sluice") and Sluice's reader writes as Canal does.
     */
    static final List<OnlySluice> ONLY_SLUICE =
            List.of(
                    new OnlySluice(ChangeType.CINDEX, "CREATE INDEX ", KNOWN_LIMITATIONS),
                    new OnlySluice(ChangeType.DINDEX, "DROP INDEX ", KNOWN_LIMITATIONS));

    /** GitHub's anchor of a markdown heading. */
    static String anchor(String heading) {
        return heading.replaceFirst("^#+\\s*", "")
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9 _-]", "")
                .replace(' ', '-');
    }

    /**
     * The events with each primary-key UPDATE split into a DELETE and an INSERT, as the job's
     * normalize step splits them: Debezium writes a key change so, Sluice's reader as one UPDATE.
     */
    static List<ChangeEvent> splitKeyChanges(List<ChangeEvent> events) {
        PrimaryKeyChangeSplitter splitter = new PrimaryKeyChangeSplitter();
        List<ChangeEvent> split = new ArrayList<>();
        Collector<ChangeEvent> out = new ListCollector<>(split);
        for (ChangeEvent event : events) {
            splitter.flatMap(event, out);
        }
        return split;
    }
}
