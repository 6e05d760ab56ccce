package io.sluice.functions.route;

import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicRouterTest {

    private static TopicRouter router(String dynamicTopic) {
        return TopicRouter.create(dynamicTopic, null, "fallback", "route.dynamic-topic");
    }

    @Test
    void exactTableNameBecomesItsOwnTopic() {
        TopicRouter router = router("mytest1.user");

        assertThat(router.topicOf("mytest1", "user")).isEqualTo("mytest1_user");
        assertThat(router.topicOf("MyTest1", "USER")).isEqualTo("mytest1_user");
        assertThat(router.topicOf("mytest1", "other")).isEqualTo("fallback");
    }

    @Test
    void explicitTopicWithTableRegex() {
        TopicRouter router = router("orders:shop\\.order_.*;shop\\.cust.*");

        assertThat(router.topicOf("shop", "order_2024")).isEqualTo("orders");
        assertThat(router.topicOf("SHOP", "Order_X")).isEqualTo("orders");
        assertThat(router.topicOf("shop", "customers")).isEqualTo("shop_customers");
        assertThat(router.topicOf("shop", "items")).isEqualTo("fallback");
    }

    @Test
    void schemaRulesOnlyApplyWhenNoTableRuleMatched() {
        // The schema rule comes first, but the table pass runs before the schema pass.
        TopicRouter router = router("shop;special:shop\\.vip");

        assertThat(router.topicOf("shop", "vip")).isEqualTo("special");
        assertThat(router.topicOf("shop", "anything")).isEqualTo("shop");
    }

    @Test
    void schemaRegexMatchesTheSchemaAlone() {
        TopicRouter router = router("tenant_[0-9]+");

        assertThat(router.topicOf("tenant_42", "orders")).isEqualTo("tenant_42");
        assertThat(router.topicOf("tenant_x", "orders")).isEqualTo("fallback");
    }

    @Test
    void regexIsAnchored() {
        TopicRouter router = router("t:shop\\.ord");

        assertThat(router.topicOf("shop", "orders")).isEqualTo("fallback");
        assertThat(router.topicOf("myshop", "ord")).isEqualTo("fallback");
    }

    @Test
    void templateAppliesBeforeTheDefaultTopic() {
        TopicRouter router =
                TopicRouter.create("vip:shop\\.vip", "cdc.{database}.{table}", "fallback", "x");

        assertThat(router.topicOf("shop", "vip")).isEqualTo("vip");
        assertThat(router.topicOf("shop", "orders")).isEqualTo("cdc.shop.orders");
        assertThat(router.topicOf("shop", "ordérs")).isEqualTo("cdc.shop.ord_rs");
        assertThat(router.topicOf("", "")).isEqualTo("fallback");
    }

    @Test
    void badRegexNamesOptionItemAndRegex() {
        assertThatThrownBy(() -> router("a,t:shop\\.(orders"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'route.dynamic-topic'")
                .hasMessageContaining("'shop\\.(orders'")
                .hasMessageContaining("in 't:shop\\.(orders'");
    }

    @Test
    void badTopicNameAndTemplateAreRefused() {
        assertThatThrownBy(() -> router("bad topic:shop"))
                .hasMessageContaining("names the topic 'bad topic'");
        assertThatThrownBy(() -> TopicRouter.create(null, "{db}_{table}", "t", "x"))
                .hasMessageContaining("unknown placeholder '{db}'");
        assertThatThrownBy(() -> TopicRouter.create(null, null, " ", "x"))
                .hasMessageContaining("default topic is required");
    }

    @Test
    void routingBySchemaMatchesRoutingByName() {
        TopicRouter router = router("orders:shop\\.order_.*");
        TableSchema orders = TableSchema.builder("shop", "order_1").build();
        TableSchema other = TableSchema.builder("shop", "items").build();

        assertThat(router.topicOf(orders)).isEqualTo("orders");
        assertThat(router.topicOf(orders)).isEqualTo(router.topicOf("shop", "order_1"));
        assertThat(router.topicOf(other)).isEqualTo("fallback");
    }
}
