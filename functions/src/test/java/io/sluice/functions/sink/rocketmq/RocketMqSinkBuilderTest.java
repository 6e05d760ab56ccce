package io.sluice.functions.sink.rocketmq;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.util.InstantiationUtil;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.sink.rocketmq.internal.ProducerQueueSender;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RocketMqSinkBuilderTest {

    @Test
    void nameServerIsRequired() {
        assertThatThrownBy(() -> RocketMqSink.builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Option 'name-server' is required but missing");
        assertThatThrownBy(() -> RocketMqSink.builder().setNameServer(" ").build())
                .hasMessage("Option 'name-server' is required but blank");
    }

    @Test
    void producerGroupFollowsRocketMqRules() {
        assertThatThrownBy(
                        () ->
                                RocketMqSink.builder()
                                        .setNameServer("127.0.0.1:9876")
                                        .setProducerGroup("my group!")
                                        .build())
                .hasMessageContaining("Option 'producer-group' must be 1-255")
                .hasMessageContaining("but is 'my group!'");
    }

    @Test
    void sendTimeoutMustBePositive() {
        assertThatThrownBy(
                        () ->
                                RocketMqSink.builder()
                                        .setNameServer("127.0.0.1:9876")
                                        .setSendTimeout(Duration.ZERO)
                                        .build())
                .hasMessageContaining("Option 'send-timeout' must be positive")
                .hasMessageContaining("but is PT0S");
    }

    @Test
    void batchLimitsAreChecked() {
        assertThatThrownBy(
                        () ->
                                RocketMqSink.builder()
                                        .setNameServer("127.0.0.1:9876")
                                        .setBatchMaxMessages(0)
                                        .build())
                .hasMessage("Option 'batch-max-messages' must be at least 1, but is 0");
        assertThatThrownBy(
                        () ->
                                RocketMqSink.builder()
                                        .setNameServer("127.0.0.1:9876")
                                        .setBatchMaxBytes(8 * 1024 * 1024)
                                        .build())
                .hasMessageContaining("Option 'batch-max-bytes' must be between")
                .hasMessageContaining("but is 8388608");
    }

    @Test
    void settersRefuseNullAndSecondCalls() {
        assertThatThrownBy(() -> RocketMqSink.builder().setNameServer(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("nameServer must not be null");
        assertThatThrownBy(() -> RocketMqSink.builder().setNameServer("a:1").setNameServer("b:1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("nameServer is already set");
        assertThatThrownBy(
                        () ->
                                RocketMqSink.builder()
                                        .setSenderFactory(ProducerQueueSender::new)
                                        .setSenderFactory(ProducerQueueSender::new))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("senderFactory is already set");
    }

    @Test
    void factoryReadsItsDeliveryGuaranteeKey() {
        Configuration config = new Configuration();
        config.setString("sink.rocketmq.name-server", "127.0.0.1:9876");
        assertThat(
                        RocketMqSinkFactory.sink(OptionSection.of(config, "sink.rocketmq."))
                                .deliveryGuarantee())
                .isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
        config.setString("sink.rocketmq.delivery-guarantee", "at-least-once");
        assertThat(
                        RocketMqSinkFactory.sink(OptionSection.of(config, "sink.rocketmq."))
                                .deliveryGuarantee())
                .isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
    }

    @Test
    void theSinkTravelsToTheTaskManagersWithItsSenderFactory() throws Exception {
        RocketMqSink sink =
                RocketMqSink.builder()
                        .setNameServer("127.0.0.1:9876")
                        .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                        .build();
        RocketMqSink copy =
                InstantiationUtil.clone(sink, RocketMqSinkBuilderTest.class.getClassLoader());
        assertThat(copy.settings()).isEqualTo(sink.settings());
        assertThat(copy.deliveryGuarantee()).isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
    }

    @Test
    void factoryNamesTheMissingKey() {
        assertThatThrownBy(
                        () ->
                                RocketMqSinkFactory.sink(
                                        OptionSection.of(new Configuration(), "sink.rocketmq.")))
                .hasMessage("Option 'sink.rocketmq.name-server' is required but missing");
    }
}
