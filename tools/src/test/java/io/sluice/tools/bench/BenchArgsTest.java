package io.sluice.tools.bench;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

class BenchArgsTest {

    @Test
    void producerPropertiesAreCollectedInOrder() {
        BenchArgs args =
                BenchArgs.parse(
                        new String[] {
                            "--producer-property", "compression.type=lz4",
                            "--producer-property", "client.id=a=b"
                        });

        assertThat(args.producerProperties)
                .containsExactly(entry("compression.type", "lz4"), entry("client.id", "a=b"));
    }

    @Test
    void aProducerPropertyWithoutKeyOrValueIsRefused() {
        for (String bad : new String[] {"lz4", "=lz4", "compression.type="}) {
            assertThatThrownBy(() -> BenchArgs.parse(new String[] {"--producer-property", bad}))
                    .hasMessageContaining("--producer-property")
                    .hasMessageContaining("KEY=VALUE")
                    .hasMessageContaining(bad);
        }
    }

    @Test
    void warmUpRoundsDefaultToOneAndMayBeZero() {
        assertThat(BenchArgs.parse(new String[0]).warmup).isEqualTo(1);
        assertThat(BenchArgs.parse(new String[] {"--quick"}).warmup).isEqualTo(1);
        assertThat(BenchArgs.parse(new String[] {"--warmup", "0"}).warmup).isZero();
        assertThatThrownBy(() -> BenchArgs.parse(new String[] {"--warmup", "-1"}))
                .hasMessageContaining("--warmup")
                .hasMessageContaining("-1");
    }

    @Test
    void theServerIsMariaDbUnlessMySqlIsAsked() {
        assertThat(BenchArgs.parse(new String[0]).server).isEqualTo("mariadb");
        assertThat(BenchArgs.parse(new String[] {"--server", "mysql"}).server).isEqualTo("mysql");
        assertThat(BenchArgs.parse(new String[] {"--server", "mariadb"}).server)
                .isEqualTo("mariadb");
        assertThatThrownBy(() -> BenchArgs.parse(new String[] {"--server", "foo"}))
                .hasMessageContaining("--server")
                .hasMessageContaining("mariadb, mysql")
                .hasMessageContaining("foo");
    }

    @Test
    void theSqlOptionsCarryEveryProperty() {
        assertThat(Pipelines.sqlProperties(Map.of("compression.type", "lz4")))
                .isEqualTo(", 'properties.compression.type' = 'lz4'");
    }
}
