package io.sluice.job.canal;

import io.sluice.functions.source.StartupMode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * Translates a Canal MQ instance's settings into Sluice's: the source and its start position here,
 * the topics and partitions in {@link CanalRouteImport}, the format and the producer in {@link
 * CanalSinkImport}, column and change-type filters in {@link CanalFilterImport}. Every key is
 * translated, accepted as Canal plumbing Sluice needs no counterpart of, or reported; all problems
 * are collected before failing, each naming the file, line and key.
 */
final class CanalImport {

    static final String PASSWORD_ENV = "SLUICE_SOURCE_PASSWORD";

    private final CanalSettings canal;
    private final SluiceYaml yaml = new SluiceYaml();
    private final List<String> problems = new ArrayList<>();

    private CanalImport(CanalSettings canal) {
        this.canal = canal;
    }

    /** The Sluice settings, or an exception listing every key that cannot be translated. */
    static SluiceYaml translate(CanalSettings canal, Optional<Path> metaDat) {
        CanalImport run = new CanalImport(canal);
        run.job();
        run.source(metaDat);
        CanalSinkImport.translate(canal, run.yaml, run.problems);
        CanalRouteImport.translate(canal, run.yaml, run.problems);
        CanalFilterImport.translate(canal, run.yaml, run.problems);
        run.leftOver();
        if (!run.problems.isEmpty()) {
            throw new CanalImportException(run.problems);
        }
        return run.yaml;
    }

    /** Records a problem with {@code key}, where it is and what is wrong. */
    static void problem(List<String> problems, CanalSettings canal, String key, String what) {
        problems.add(canal.where(key) + ": " + key + ": " + what);
    }

    /** Fails with a problem if {@code regex} is not one; Canal's keys name it. */
    static boolean checkRegex(
            List<String> problems, CanalSettings canal, String key, String regex) {
        try {
            Pattern.compile(regex);
            return true;
        } catch (PatternSyntaxException e) {
            problem(
                    problems,
                    canal,
                    key,
                    "'" + regex + "' is not a regular expression: " + e.getDescription());
            return false;
        }
    }

    private void job() {
        canal.take("canal.destinations")
                .map(
                        d ->
                                Arrays.stream(d.split(","))
                                        .map(String::trim)
                                        .collect(Collectors.toList()))
                .filter(d -> d.size() == 1)
                .ifPresent(
                        d -> {
                            String name = "sluice-" + d.get(0);
                            yaml.set("job.name", name, "From canal.destinations (the instance).");
                            yaml.set(
                                    "sink.kafka.transactional-id-prefix",
                                    name,
                                    "Unique per job and stable across its restarts.");
                        });
    }

    private void source(Optional<Path> metaDat) {
        canal.take("canal.instance.master.address")
                .ifPresentOrElse(
                        this::address,
                        () ->
                                problem(
                                        problems,
                                        canal,
                                        "canal.instance.master.address",
                                        "is required: the source database's 'host:port'"));
        canal.take("canal.instance.dbUsername")
                .ifPresent(
                        user ->
                                yaml.set(
                                        "source.username",
                                        user,
                                        "From canal.instance.dbUsername. Sluice needs SELECT,"
                                                + " RELOAD, SHOW DATABASES, REPLICATION SLAVE and"
                                                + " REPLICATION CLIENT (BINLOG MONITOR on MariaDB)."));
        canal.take("canal.instance.dbPassword");
        yaml.set(
                "source.password",
                "${env:" + PASSWORD_ENV + "}",
                "canal.instance.dbPassword is not copied: set the environment variable "
                        + PASSWORD_ENV
                        + ".");
        tables();
        slaveId();
        statements();
        start(metaDat);
    }

    private void address(String address) {
        int colon = address.lastIndexOf(':');
        String host = colon < 0 ? address : address.substring(0, colon);
        String port = colon < 0 ? "3306" : address.substring(colon + 1);
        if (host.isEmpty() || !port.matches("[0-9]{1,5}")) {
            problem(
                    problems,
                    canal,
                    "canal.instance.master.address",
                    "takes 'host:port', but is '" + address + "'");
            return;
        }
        yaml.set("source.hostname", host, "From canal.instance.master.address.");
        yaml.set("source.port", port, "From canal.instance.master.address.");
    }

    private void tables() {
        String include = "canal.instance.filter.regex";
        List<String> tables = tablePatterns(include, canal.take(include).orElse(""));
        if (tables.isEmpty() && !canal.has(include)) {
            problem(problems, canal, include, "is required: the tables to capture");
        } else if (!tables.isEmpty()) {
            yaml.set(
                    "source.tables",
                    tables,
                    "From canal.instance.filter.regex: one 'database.table' regex per item (a"
                            + " wildcard '.' in the database part is written [^\\x2E]).");
        }
        String exclude = "canal.instance.filter.black.regex";
        List<String> excluded = tablePatterns(exclude, canal.take(exclude).orElse(""));
        yaml.set(
                "source.tables-exclude",
                excluded,
                "From canal.instance.filter.black.regex" + (excluded.isEmpty() ? " (none)." : "."));
    }

    /** Canal's comma-separated table regexes, each checked; empty on a problem. */
    private List<String> tablePatterns(String key, String value) {
        List<String> patterns = new ArrayList<>();
        boolean ok = true;
        for (String item : value.split(",")) {
            String regex = item.trim();
            if (regex.isEmpty()) {
                continue;
            }
            if (!checkRegex(problems, canal, key, regex)) {
                ok = false;
            } else if (regex.indexOf('.') < 0) {
                problem(
                        problems,
                        canal,
                        key,
                        "'" + regex + "' names no table: Sluice takes 'database\\.table' regexes");
                ok = false;
            }
            patterns.add(databaseFirst(regex));
        }
        return ok ? patterns : List.of();
    }

    /**
     * The regex with each wildcard '.' before the database/table separator ('\\.') written as
     * {@code [^\x2E]}: the same names (a database name holds no '.'), but the first '.' of the text
     * is then the separator, which is how Sluice finds the database part ('.*\\..*' becomes
     * '[^\x2E]*\\..*').
     */
    static String databaseFirst(String regex) {
        int separator = regex.indexOf("\\.");
        if (separator < 0 || regex.indexOf('.') == separator + 1) {
            return regex;
        }
        StringBuilder out = new StringBuilder();
        boolean inClass = false;
        for (int i = 0; i < separator; i++) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < separator) {
                out.append(c).append(regex.charAt(++i));
                continue;
            }
            if (c == '[') {
                inClass = true;
            } else if (c == ']') {
                inClass = false;
            }
            out.append(c == '.' && !inClass ? "[^\\x2E]" : String.valueOf(c));
        }
        return out.append(regex, separator, regex.length()).toString();
    }

    private void slaveId() {
        canal.take("canal.instance.mysql.slaveId")
                .ifPresent(
                        id ->
                                yaml.footer(
                                        "canal.instance.mysql.slaveId ("
                                                + id
                                                + ") is not carried over: Sluice runs beside"
                                                + " Canal during the shadow run, so its replica"
                                                + " ids must differ from Canal's. Unset,"
                                                + " source.server-id is a range drawn at random"
                                                + " when the job is built."));
    }

    private void statements() {
        canal.take("canal.instance.filter.query.dcl"); // Sluice writes no DCL messages.
        boolean ddlFiltered =
                canal.take("canal.instance.filter.query.ddl")
                        .map(CanalSettings::isTrue)
                        .orElse(false);
        yaml.set(
                "source.include-schema-changes",
                String.valueOf(!ddlFiltered),
                "From canal.instance.filter.query.ddl=" + ddlFiltered + ".");
        boolean dmlFiltered =
                canal.take("canal.instance.filter.query.dml")
                        .map(CanalSettings::isTrue)
                        .orElse(false);
        yaml.set(
                "source.include-queries",
                "false",
                dmlFiltered
                        ? "From canal.instance.filter.query.dml=true: no statement texts."
                        : "canal.instance.filter.query.dml=false: Canal writes DML statement texts"
                                + " as QUERY messages; Sluice leaves them out (true: MySQL only,"
                                + " docs/canal-compatibility.md).");
    }

    private void start(Optional<Path> metaDat) {
        boolean gtidOn =
                canal.take("canal.instance.gtidon").map(CanalSettings::isTrue).orElse(false);
        Optional<CanalPosition> fromMeta;
        try {
            fromMeta = metaDat.map(file -> CanalPosition.read(file, gtidOn));
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
            return;
        }
        Optional<String> file = canal.take("canal.instance.master.journal.name");
        Optional<String> offset = canal.take("canal.instance.master.position");
        Optional<String> time = canal.take("canal.instance.master.timestamp");
        Optional<String> gtid = canal.take("canal.instance.master.gtid");
        if (fromMeta.isPresent()) {
            fromMeta.get().writeTo(yaml);
        } else if (gtidOn && gtid.isPresent()) {
            mode(StartupMode.GTID, "From canal.instance.gtidon and canal.instance.master.gtid.");
            yaml.set("source.startup.gtid-set", gtid.get(), "From canal.instance.master.gtid.");
        } else if (file.isPresent()) {
            if (offset.isPresent() && !offset.get().matches("[0-9]+")) {
                problem(
                        problems,
                        canal,
                        "canal.instance.master.position",
                        "takes a binlog offset, but is '" + offset.get() + "'");
                return;
            }
            mode(StartupMode.BINLOG_POSITION, "From canal.instance.master.journal.name/position.");
            yaml.set("source.startup.binlog-file", file.get(), "From journal.name.");
            yaml.set(
                    "source.startup.binlog-position",
                    offset.orElse("4"),
                    offset.isPresent()
                            ? "From canal.instance.master.position."
                            : "No position: the file's first event, as Canal.");
        } else if (time.isPresent()) {
            if (!time.get().matches("[0-9]+")) {
                problem(
                        problems,
                        canal,
                        "canal.instance.master.timestamp",
                        "takes epoch milliseconds, but is '" + time.get() + "'");
                return;
            }
            mode(StartupMode.TIMESTAMP, "From canal.instance.master.timestamp.");
            yaml.set("source.startup.timestamp-millis", time.get(), "Epoch milliseconds.");
        } else {
            mode(
                    StartupMode.LATEST,
                    "No start position in the Canal files: the binlog's end, as Canal without a"
                            + " stored position. 'initial' snapshots the tables first;"
                            + " docs/migrating-from-canal.md shows how to start where Canal is.");
        }
    }

    private void mode(StartupMode mode, String comment) {
        yaml.set("source.startup.mode", mode.toString(), comment);
    }

    /** Neutral keys at other values, Canal plumbing and unknown keys. */
    private void leftOver() {
        List<String> notNeeded = new ArrayList<>();
        for (String key : canal.unused()) {
            if (CanalKeys.isNeutralKey(key)) {
                CanalKeys.neutralProblem(key, canal.raw(key))
                        .ifPresent(
                                why ->
                                        problem(
                                                problems,
                                                canal,
                                                key,
                                                "cannot be translated with the value '"
                                                        + shown(key, canal.raw(key))
                                                        + "': "
                                                        + why));
            } else if (CanalKeys.notNeeded(key)) {
                notNeeded.add(key);
            } else {
                problem(problems, canal, key, "is not a Canal key the import knows");
            }
        }
        if (!notNeeded.isEmpty()) {
            yaml.footer(
                    "Canal settings Sluice needs no counterpart of (its server, store, parser and"
                            + " meta plumbing): "
                            + String.join(", ", notNeeded)
                            + ".");
        }
    }

    /** A value as it may appear in a message: secrets never do. */
    static String shown(String key, String value) {
        String lower = key.toLowerCase();
        return lower.contains("password") || lower.contains("secret") || lower.contains("jaas")
                ? "******"
                : value;
    }
}
