package io.sluice.tools.cli;

import org.apache.flink.util.TimeUtils;

import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * The command lines of {@code ./sluice}'s tools, all parsed by picocli: the same error for a bad
 * value (the option, the rule, the value) and {@code --help} from the options' descriptions.
 */
public final class Cli {

    private Cli() {}

    /**
     * Fills {@code command}'s options from {@code argv}; a bad or unknown option is an {@link
     * IllegalArgumentException} naming the option and the value.
     */
    public static <T> T parse(T command, String... argv) {
        try {
            new CommandLine(command).parseArgs(argv);
        } catch (ParameterException e) {
            throw new IllegalArgumentException(message(e), e);
        }
        return command;
    }

    /**
     * For a {@code main}: fills {@code command} from {@code argv}, or prints the usage and exits, 0
     * after {@code --help}, 2 after a bad argument (with the error first, after {@code name}).
     */
    public static <T> T parseOrExit(String name, T command, String... argv) {
        CommandLine line = new CommandLine(command);
        try {
            line.parseArgs(argv);
        } catch (ParameterException e) {
            System.err.println(name + ": " + message(e));
            line.usage(new PrintWriter(System.err, true));
            System.exit(2);
        }
        if (line.isUsageHelpRequested()) {
            line.usage(new PrintWriter(System.out, true));
            System.exit(0);
        }
        return command;
    }

    /**
     * For a {@code main} whose subcommands are {@code @Command} methods of {@code line}'s command:
     * runs the one {@code argv} names. Returns the exit code: 0, 1 after a failure (its message), 2
     * after a bad argument (the error, then the usage).
     */
    public static int execute(String name, CommandLine line, String... argv) {
        line.setParameterExceptionHandler(
                (e, args) -> {
                    System.err.println(name + ": " + message(e));
                    e.getCommandLine().usage(new PrintWriter(System.err, true));
                    return 2;
                });
        line.setExecutionExceptionHandler(
                (e, failed, parsed) -> {
                    System.err.println(name + ": " + e.getMessage());
                    if (e.getCause() != null) {
                        System.err.println("  caused by: " + e.getCause());
                    }
                    return 1;
                });
        return line.execute(argv);
    }

    /**
     * A bad value of {@code option}, for an option's setter to throw ({@code rule}: what it takes,
     * e.g. "takes kafka, rocketmq").
     */
    public static TypeConversionException bad(String option, String rule, Object value) {
        return new BadValue("'" + option + "' " + rule + ", but got '" + value + "'");
    }

    /** The error to show: a setter's {@link #bad} as it is, picocli's own otherwise. */
    private static String message(ParameterException e) {
        return e.getCause() instanceof BadValue ? e.getCause().getMessage() : e.getMessage();
    }

    /** What {@link #bad} throws; its message names the option already. */
    private static final class BadValue extends TypeConversionException {
        private static final long serialVersionUID = 1L;

        BadValue(String message) {
            super(message);
        }
    }

    /** A Flink duration: {@code 30s}, {@code 2min}, {@code 500ms}. */
    public static final class FlinkDuration implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return TimeUtils.parseDuration(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(
                        "takes a duration such as 30s, 2min or 500ms, but got '" + value + "'");
            }
        }
    }

    /** An int above zero. */
    public static final class Positive implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int n = number(value);
            if (n <= 0) {
                throw new TypeConversionException("must be positive, but got '" + value + "'");
            }
            return n;
        }
    }

    /** An int of zero or more. */
    public static final class NonNegative implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int n = number(value);
            if (n < 0) {
                throw new TypeConversionException("must be zero or more, but got '" + value + "'");
            }
            return n;
        }
    }

    private static int number(String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("takes a number, but got '" + value + "'");
        }
    }
}
