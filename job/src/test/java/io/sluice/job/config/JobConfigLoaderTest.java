package io.sluice.job.config;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;

import io.sluice.functions.sink.KafkaSinkOptions;
import io.sluice.functions.source.MySqlSourceOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobConfigLoaderTest {

    @Test
    void readsTypedOptions() {
        Configuration config =
                JobConfigLoader.fromArgs(
                        "--set", "source.port=3307",
                        "--set", "source.tables=shop.orders;shop.customers",
                        "--set", "sink.delivery-guarantee=at-least-once",
                        "--set", "job.checkpoint-interval=2s");

        assertThat(config.get(MySqlSourceOptions.PORT)).isEqualTo(3307);
        assertThat(config.get(MySqlSourceOptions.TABLES))
                .isEqualTo(List.of("shop.orders", "shop.customers"));
        assertThat(config.get(KafkaSinkOptions.DELIVERY_GUARANTEE))
                .isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
        assertThat(config.get(JobOptions.CHECKPOINT_INTERVAL)).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void unknownKeyIsNamed() {
        assertThatThrownBy(() -> JobConfigLoader.fromArgs("--set", "source.hots=x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unknown option 'source.hots'")
                .hasMessageContaining("source.hostname");
    }

    @Test
    void badValueNamesKeyAndValue() {
        assertThatThrownBy(() -> JobConfigLoader.fromArgs("--set", "source.port=abc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'source.port'")
                .hasMessageContaining("'abc'");
    }

    @Test
    void badShapeIsNamed() {
        assertThatThrownBy(() -> JobConfigLoader.fromArgs("source.port=1"))
                .hasMessageContaining("'--set key=value'");
    }
}
