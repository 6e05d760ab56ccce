package io.sluice.job.canal;

import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.RouteOptions;
import io.sluice.job.config.JobConfigLoader;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./sluice import-canal <canal.properties> <instance.properties> [--meta <meta.dat>]
 * [--output <sluice.yaml>]}: writes the {@code sluice.yaml} equivalent to a Canal MQ instance, with
 * a comment on each translated key. Fails (exit 1) naming every key it cannot translate, with its
 * file and line; a password is never copied, only referred to as {@code ${env:...}}. The result is
 * loaded back with the job's own loader before it is written.
 */
public final class ImportCanal {

    private static final Pattern ENV = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");
    private static final String USAGE =
            "usage: ./sluice import-canal <canal.properties> <instance.properties>"
                    + " [--meta <meta.dat>] [--output <sluice.yaml>]";

    private ImportCanal() {}

    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /** Imports, writing the YAML to {@code out} or the output file; returns the exit code. */
    public static int run(PrintStream out, PrintStream err, String... args) {
        List<Path> files = new ArrayList<>();
        Optional<Path> meta = Optional.empty();
        Optional<Path> output = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            if (("--meta".equals(args[i]) || "--output".equals(args[i])) && i + 1 < args.length) {
                Path path = Path.of(args[++i]);
                if ("--meta".equals(args[i - 1])) {
                    meta = Optional.of(path);
                } else {
                    output = Optional.of(path);
                }
            } else if (args[i].startsWith("--")) {
                err.println("import-canal: unknown option '" + args[i] + "'\n" + USAGE);
                return 2;
            } else {
                files.add(Path.of(args[i]));
            }
        }
        if (files.size() != 2) {
            err.println(USAGE);
            return 2;
        }
        String yaml;
        try {
            CanalSettings canal =
                    new CanalSettings(
                            List.of(
                                    CanalProperties.read(files.get(0)),
                                    CanalProperties.read(files.get(1))));
            yaml = CanalImport.translate(canal, meta).render(header(files, meta));
            check(yaml);
        } catch (CanalImportException e) {
            err.println("import-canal: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            err.println("import-canal: " + e.getMessage());
            return 2;
        }
        if (output.isEmpty()) {
            out.print(yaml);
            return 0;
        }
        try {
            Files.writeString(output.get(), yaml);
        } catch (IOException e) {
            err.println("import-canal: cannot write '" + output.get() + "': " + e.getMessage());
            return 2;
        }
        err.println("import-canal: wrote " + output.get());
        return 0;
    }

    private static String header(List<Path> files, Optional<Path> meta) {
        return "Sluice configuration imported from Canal's "
                + files.get(0)
                + " and "
                + files.get(1)
                + meta.map(m -> " (start position from " + m + ")").orElse("")
                + ".\nEach key's comment names the Canal key it came from;"
                + " docs/migrating-from-canal.md explains\nthe shadow run and the differences.";
    }

    /** Loads the YAML as the job will; a failure here is the import's own fault. */
    static Configuration check(String yaml) {
        Map<String, String> env = new HashMap<>();
        Matcher matcher = ENV.matcher(yaml);
        while (matcher.find()) {
            env.put(matcher.group(1), "set-at-run-time");
        }
        try {
            Path file = Files.createTempFile("sluice-import", ".yaml");
            try {
                Files.writeString(file, yaml);
                Configuration config = JobConfigLoader.fromArgs(env, "--config", file.toString());
                OptionSection route = PipelineSections.of(config).route();
                RouteOptions.router(route);
                PartitionOptions.rules(route);
                PartitionOptions.counts(route);
                return config;
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new IllegalStateException("Cannot check the imported configuration", e);
        }
    }
}
