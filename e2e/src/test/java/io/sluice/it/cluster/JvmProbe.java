package io.sluice.it.cluster;

import com.sun.tools.attach.VirtualMachine;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import java.io.IOException;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * JMX of another JVM on this machine, reached through the attach API (its local management agent,
 * no port to configure): a forced GC, the loaded-class count, the live class loaders by type, and
 * the threads, which is what a class-loader leak shows in.
 */
final class JvmProbe implements AutoCloseable {

    private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";

    private final JMXConnector connector;
    private final MBeanServerConnection server;

    private JvmProbe(JMXConnector connector) throws IOException {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
    }

    static JvmProbe attach(long pid) {
        try {
            VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
            try {
                String address = vm.startLocalManagementAgent();
                return new JvmProbe(JMXConnectorFactory.connect(new JMXServiceURL(address)));
            } finally {
                vm.detach();
            }
        } catch (Exception e) {
            throw new IllegalStateException("Cannot attach to JVM " + pid, e);
        }
    }

    /**
     * A full GC, twice: the first may only make class loaders unreachable whose finalizable or
     * cleaner-tracked objects the second then frees.
     */
    void gc() throws IOException, InterruptedException {
        MemoryMXBean memory =
                ManagementFactory.newPlatformMXBeanProxy(
                        server, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
        for (int i = 0; i < 2; i++) {
            memory.gc();
            Thread.sleep(200);
        }
    }

    /** Classes loaded now (loaded since start minus unloaded). */
    int loadedClasses() throws IOException {
        return ManagementFactory.newPlatformMXBeanProxy(
                        server,
                        ManagementFactory.CLASS_LOADING_MXBEAN_NAME,
                        ClassLoadingMXBean.class)
                .getLoadedClassCount();
    }

    /** The metaspace (class metadata): its use now and its peak so far. */
    MemoryPoolMXBean metaspace() throws IOException {
        for (MemoryPoolMXBean pool :
                ManagementFactory.getPlatformMXBeans(server, MemoryPoolMXBean.class)) {
            if (pool.getName().equals("Metaspace")) {
                return pool;
            }
        }
        throw new IllegalStateException("The JVM reports no Metaspace pool");
    }

    /**
     * The live class loaders that defined classes, by type, with how many of each ({@code jcmd
     * VM.classloader_stats}).
     */
    Map<String, Integer> classLoaders() throws Exception {
        String stats =
                (String)
                        server.invoke(
                                new ObjectName(DIAGNOSTIC_COMMAND),
                                "vmClassloaderStats",
                                new Object[] {new String[0]},
                                new String[] {String[].class.getName()});
        Map<String, Integer> byType = new TreeMap<>();
        for (String line : (Iterable<String>) stats.lines()::iterator) {
            String[] fields = line.trim().split("\\s+");
            // ClassLoader Parent CLD* Classes ChunkSz BlockSz Type
            if (fields.length == 7 && fields[0].startsWith("0x")) {
                byType.merge(fields[6], 1, Integer::sum);
            }
        }
        return byType;
    }

    /** The JVM's options, as its command line gave them. */
    List<String> jvmArguments() throws IOException {
        return ManagementFactory.newPlatformMXBeanProxy(
                        server, ManagementFactory.RUNTIME_MXBEAN_NAME, RuntimeMXBean.class)
                .getInputArguments();
    }

    /** The names of the live threads, sorted. */
    List<String> threads() throws IOException {
        ThreadMXBean threads =
                ManagementFactory.newPlatformMXBeanProxy(
                        server, ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
        return Arrays.stream(threads.dumpAllThreads(false, false))
                .map(ThreadInfo::getThreadName)
                .sorted()
                .collect(Collectors.toList());
    }

    /** A diagnostic command's output, e.g. {@code gcClassHistogram} or {@code threadPrint}. */
    String command(String name) throws Exception {
        return (String)
                server.invoke(
                        new ObjectName(DIAGNOSTIC_COMMAND),
                        name,
                        new Object[] {new String[0]},
                        new String[] {String[].class.getName()});
    }

    /** Writes the live objects' heap dump to {@code file} (an hprof). */
    void heapDump(java.nio.file.Path file) throws Exception {
        ManagementFactory.newPlatformMXBeanProxy(
                        server,
                        "com.sun.management:type=HotSpotDiagnostic",
                        com.sun.management.HotSpotDiagnosticMXBean.class)
                .dumpHeap(file.toAbsolutePath().toString(), true);
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
