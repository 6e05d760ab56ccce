package io.sluice.job.config;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Finds every {@code *Options} class of Sluice's main code on the class path (any module, a folder
 * of classes or a jar) and the {@link ConfigOption}s each declares, in declaration order. Test
 * classes are left out: their options are not the product's.
 */
@Internal
final class OptionClasses {

    private static final String ROOT = "io/sluice/";
    private static final String SUFFIX = "Options.class";

    private OptionClasses() {}

    /** Each {@code *Options} class holding options, by name, with its public static options. */
    static Map<Class<?>, List<ConfigOption<?>>> find(ClassLoader loader) {
        Map<Class<?>, List<ConfigOption<?>>> found = new LinkedHashMap<>();
        for (String name : classNames(loader)) {
            Class<?> holder;
            try {
                holder = Class.forName(name, true, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IllegalStateException("Cannot load options class " + name, e);
            }
            List<ConfigOption<?>> options = options(holder);
            if (!options.isEmpty()) {
                found.put(holder, options);
            }
        }
        return found;
    }

    /** The public static {@link ConfigOption} fields of {@code holder}, in declaration order. */
    static List<ConfigOption<?>> options(Class<?> holder) {
        List<ConfigOption<?>> options = new ArrayList<>();
        for (Field field : holder.getDeclaredFields()) {
            int modifiers = field.getModifiers();
            if (Modifier.isPublic(modifiers)
                    && Modifier.isStatic(modifiers)
                    && ConfigOption.class.isAssignableFrom(field.getType())) {
                try {
                    options.add((ConfigOption<?>) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("Cannot read option " + field, e);
                }
            }
        }
        return options;
    }

    private static TreeSet<String> classNames(ClassLoader loader) {
        TreeSet<String> names = new TreeSet<>();
        try {
            for (URL root : Collections.list(loader.getResources(ROOT))) {
                if (isTestCode(root.toString())) {
                    continue;
                }
                if ("jar".equals(root.getProtocol())) {
                    namesInJar(root, names);
                } else if ("file".equals(root.getProtocol())) {
                    namesInFolder(new File(root.toURI()).toPath().getParent().getParent(), names);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the classes under " + ROOT, e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Cannot list the classes under " + ROOT, e);
        }
        return names;
    }

    private static boolean isTestCode(String location) {
        return location.contains("/test-classes/") || location.contains("-tests.jar!");
    }

    private static void namesInJar(URL root, TreeSet<String> names) throws IOException {
        JarURLConnection connection = (JarURLConnection) root.openConnection();
        connection.setUseCaches(false);
        try (JarFile jar = connection.getJarFile()) {
            Enumeration<JarEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                add(entries.nextElement().getName(), names);
            }
        }
    }

    private static void namesInFolder(Path classes, TreeSet<String> names) throws IOException {
        try (Stream<Path> files = Files.walk(classes.resolve(ROOT))) {
            files.forEach(
                    file -> add(classes.relativize(file).toString().replace('\\', '/'), names));
        }
    }

    private static void add(String path, TreeSet<String> names) {
        if (path.startsWith(ROOT) && path.endsWith(SUFFIX) && !path.contains("$")) {
            names.add(path.substring(0, path.length() - ".class".length()).replace('/', '.'));
        }
    }
}
