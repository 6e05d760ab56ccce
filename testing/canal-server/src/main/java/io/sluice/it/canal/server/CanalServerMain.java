package io.sluice.it.canal.server;

import com.alibaba.otter.canal.connector.core.config.MQProperties;
import com.alibaba.otter.canal.connector.core.spi.CanalMQProducer;
import com.alibaba.otter.canal.connector.core.spi.ExtensionLoader;
import com.alibaba.otter.canal.connector.core.spi.ProxyCanalMQProducer;
import com.alibaba.otter.canal.instance.core.CanalMQConfig;
import com.alibaba.otter.canal.instance.manager.CanalInstanceWithManager;
import com.alibaba.otter.canal.instance.manager.model.Canal;
import com.alibaba.otter.canal.instance.manager.model.CanalParameter;
import com.alibaba.otter.canal.parse.inbound.TableMeta;
import com.alibaba.otter.canal.parse.inbound.mysql.MysqlEventParser;
import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.MemoryTableMeta;
import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.TableMetaTSDB;
import com.alibaba.otter.canal.parse.inbound.mysql.tsdb.TableMetaTSDBFactory;
import com.alibaba.otter.canal.protocol.position.EntryPosition;
import com.alibaba.otter.canal.server.CanalMQStarter;
import com.alibaba.otter.canal.server.embedded.CanalServerWithEmbedded;
import com.alibaba.otter.canal.sink.entry.EntryEventSink;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * A Canal 1.1.7 MQ server, as {@code canal.deployer}'s {@code CanalLauncher} starts one with {@code
 * canal.serverMode=kafka} (Maven Central has no {@code canal.deployer} at 1.1.7, so this launcher
 * does by hand what its {@code CanalStarter}, {@code CanalController} and Spring instance files
 * do). Arguments: a {@code canal.properties} and an {@code instance.properties} file, with Canal's
 * own keys.
 *
 * <p>Canal's own code, unchanged: the Kafka producer plugin ({@code CanalKafkaProducer}, found by
 * Canal's {@code ExtensionLoader} and wrapped in its {@code ProxyCanalMQProducer}, configured from
 * canal.properties as the deployer does), the embedded server ({@code CanalServerWithEmbedded}),
 * the MQ worker that gets batches from it and sends them ({@code CanalMQStarter}), the instance
 * ({@code CanalInstanceWithManager}: memory meta, memory store, entry sink, {@code
 * MysqlEventParser}), Canal's binlog decoder and its table-meta DDL replay ({@code
 * MemoryTableMeta}).
 *
 * <p>Wired by hand: the instance's settings come from instance.properties into Canal's {@code
 * CanalParameter} model (where the deployer's Spring files set the same beans' properties); the MQ
 * settings ({@code canal.mq.topic}, {@code canal.mq.partitionsNum}, {@code canal.mq.partitionHash},
 * {@code canal.mq.dynamicTopic}) into the instance's {@code CanalMQConfig}; and the table-meta
 * store is Canal's in-memory {@code MemoryTableMeta} (the deployer's default, {@code
 * DatabaseTableMeta} on H2, replays DDL through the same class but also persists snapshots, which a
 * test server that starts fresh does not need).
 *
 * <p>It stops when its standard input closes, so it never outlives the JVM that started it.
 */
public final class CanalServerMain {

    private CanalServerMain() {}

    public static void main(String[] args) throws Throwable {
        if (args.length != 2) {
            System.err.println("usage: CanalServerMain <canal.properties> <instance.properties>");
            System.exit(2);
        }
        Properties server = load(Path.of(args[0]));
        Properties instance = load(Path.of(args[1]));
        String destination = server.getProperty("canal.destinations", "example").trim();

        // CanalStarter: the MQ producer named by canal.serverMode, from the plugin folder or the
        // classpath, before the server starts.
        String mode = server.getProperty("canal.serverMode", "kafka").trim().toLowerCase();
        CanalMQProducer producer =
                ExtensionLoader.getExtensionLoader(CanalMQProducer.class)
                        .getExtension(mode, "/plugin", "/canal/plugin");
        if (producer == null) {
            throw new IllegalStateException("No Canal MQ producer for canal.serverMode=" + mode);
        }
        producer = new ProxyCanalMQProducer(producer);
        producer.init(server);
        MQProperties mq = producer.getMqProperties();
        System.setProperty("canal.withoutNetty", "true");
        boolean rawEntry = !mq.isFlatMessage();

        // CanalController: the embedded server with an instance generator.
        CanalServerWithEmbedded embedded = CanalServerWithEmbedded.instance();
        embedded.setCanalInstanceGenerator(
                name -> new Instance(canal(name, server, instance, rawEntry), server, instance));
        embedded.start();
        embedded.start(destination);

        CanalMQStarter worker = new CanalMQStarter(producer);
        worker.start(destination);
        System.out.println("sluice-canal-server: running " + destination);
        System.out.flush();

        // The parent's end of standard input closes when it stops or dies.
        InputStream parent = System.in;
        while (parent.read() >= 0) {
            // Nothing is sent; wait for the end.
        }
        worker.destroy();
        embedded.stop(destination);
        embedded.stop();
        System.exit(0);
    }

    /** The instance model, from instance.properties' keys (what the Spring files read). */
    private static Canal canal(
            String destination, Properties server, Properties instance, boolean rawEntry) {
        CanalParameter p = new CanalParameter();
        p.setCanalId(1L);
        p.setMetaMode(CanalParameter.MetaMode.MEMORY);
        p.setIndexMode(CanalParameter.IndexMode.MEMORY_META_FAILBACK);
        p.setStorageMode(CanalParameter.StorageMode.MEMORY);
        p.setMemoryStorageBufferSize(
                Integer.parseInt(
                        server.getProperty("canal.instance.memory.buffer.size", "16384").trim()));
        p.setMemoryStorageRawEntry(rawEntry);
        p.setTransactionSize(
                Integer.parseInt(
                        server.getProperty("canal.instance.transaction.size", "1024").trim()));
        p.setParallel(
                Boolean.parseBoolean(
                        server.getProperty("canal.instance.parser.parallel", "true").trim()));
        p.setDetectingEnable(false);
        p.setHaMode(CanalParameter.HAMode.HEARTBEAT);
        p.setSourcingType(CanalParameter.SourcingType.MYSQL);
        String[] address = required(instance, "canal.instance.master.address").split(":");
        p.setDbAddresses(
                java.util.List.of(
                        new InetSocketAddress(address[0].trim(), Integer.parseInt(address[1]))));
        p.setDbUsername(required(instance, "canal.instance.dbUsername"));
        p.setDbPassword(instance.getProperty("canal.instance.dbPassword", ""));
        p.setConnectionCharset(
                instance.getProperty("canal.instance.connectionCharset", "UTF-8").trim());
        p.setSlaveId(Long.parseLong(instance.getProperty("canal.instance.mysql.slaveId", "0")));
        String journal = instance.getProperty("canal.instance.master.journal.name", "").trim();
        if (!journal.isEmpty()) {
            p.setMasterLogfileName(journal);
            p.setMasterLogfileOffest(
                    Long.parseLong(required(instance, "canal.instance.master.position").trim()));
        }
        String black = instance.getProperty("canal.instance.filter.black.regex", "").trim();
        if (!black.isEmpty()) {
            p.setBlackFilter(black);
        }
        Canal canal = new Canal();
        canal.setId(1L);
        canal.setName(destination);
        canal.setCanalParameter(p);
        return canal;
    }

    /** Canal's manager instance with what the Spring files add: MQ settings, DDL-replayed meta. */
    private static final class Instance extends CanalInstanceWithManager {

        Instance(Canal canal, Properties server, Properties instance) {
            super(canal, instance.getProperty("canal.instance.filter.regex", ".*\\..*").trim());
            CanalMQConfig config = new CanalMQConfig();
            config.setTopic(instance.getProperty("canal.mq.topic", "example").trim());
            config.setPartition(Integer.parseInt(instance.getProperty("canal.mq.partition", "0")));
            String partitions = instance.getProperty("canal.mq.partitionsNum", "").trim();
            if (!partitions.isEmpty()) {
                config.setPartitionsNum(Integer.parseInt(partitions));
            }
            config.setPartitionHash(blankToNull(instance.getProperty("canal.mq.partitionHash")));
            config.setDynamicTopic(blankToNull(instance.getProperty("canal.mq.dynamicTopic")));
            this.mqConfig = config;
            // The Spring files' ${canal.instance.filter.transaction.entry:false}; the manager
            // instance always sets false.
            ((EntryEventSink) eventSink)
                    .setFilterTransactionEntry(
                            Boolean.parseBoolean(
                                    server.getProperty(
                                                    "canal.instance.filter.transaction.entry",
                                                    "false")
                                            .trim()));
            MysqlEventParser parser = (MysqlEventParser) eventParser;
            parser.setEnableTsdb(true);
            // Read by the parser's TSDB setup (it copies them into system properties) but unused
            // by the in-memory store.
            parser.setTsdbJdbcUrl("");
            parser.setTsdbJdbcUserName("");
            parser.setTsdbJdbcPassword("");
            parser.setTsdbSpringXml("");
            parser.setTableMetaTSDBFactory(
                    new TableMetaTSDBFactory() {
                        @Override
                        public TableMetaTSDB build(String destination, String springXml) {
                            return new FreshTableMeta();
                        }

                        @Override
                        public void destory(String destination) {}
                    });
        }
    }

    /**
     * Canal's {@code MemoryTableMeta}, which replays DDL, but which refuses {@code rollback} (the
     * parser rolls back to its start position first): here a rollback starts an empty store, as
     * {@code DatabaseTableMeta} does on a first start. A table met before its CREATE is read with
     * {@code SHOW CREATE TABLE}, Canal's own fallback.
     */
    private static final class FreshTableMeta implements TableMetaTSDB {

        private volatile MemoryTableMeta memory = new MemoryTableMeta();

        @Override
        public boolean init(String destination) {
            return true;
        }

        @Override
        public void destory() {
            memory.destory();
        }

        @Override
        public TableMeta find(String schema, String table) {
            return memory.find(schema, table);
        }

        @Override
        public boolean apply(EntryPosition position, String schema, String ddl, String extra) {
            return memory.apply(position, schema, ddl, extra);
        }

        @Override
        public boolean rollback(EntryPosition position) {
            memory = new MemoryTableMeta();
            return true;
        }

        @Override
        public Map<String, String> snapshot() {
            return memory.snapshot();
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static String required(Properties props, String key) {
        String value = props.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("instance.properties needs '" + key + "'");
        }
        return value.trim();
    }

    private static Properties load(Path file) throws IOException {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(in);
        }
        return props;
    }
}
