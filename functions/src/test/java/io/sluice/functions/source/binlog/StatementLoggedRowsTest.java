package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.source.StatementLoggedChanges;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a DML statement the binlog holds as text does, by the tables it writes. */
class StatementLoggedRowsTest {

    private static final RowsEventOrigin AT =
            new RowsEventOrigin("mysql-bin.000004", 1234, 0, 1, "");

    private final List<String> skipped = new ArrayList<>();

    @Test
    void namesEveryCapturedTableWrittenAndCutsALongStatement() {
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            values.append(i == 0 ? "" : ", ").append("(").append(i).append(")");
        }
        String sql = "DELETE o, c FROM orders o JOIN shop2.customers c JOIN other x " + values;
        assertThatThrownBy(() -> rows(StatementLoggedChanges.FAIL).handled(sql, "shop", AT))
                .isInstanceOf(SourceSetupException.class)
                .hasMessageContaining("captured tables shop.orders, shop2.customers as a SQL")
                .hasMessageContaining("at mysql-bin.000004:1234, in database 'shop'")
                .hasMessageContaining(sql.substring(0, StatementLoggedRows.SHOWN) + "… (")
                .hasMessageContaining(sql.length() + " characters)")
                .hasMessageContaining("set 'source.x' = 'skip'")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(2000));
    }

    @Test
    void passesOverOtherTablesAndStatementsThatAreNotDml() {
        StatementLoggedRows rows = rows(StatementLoggedChanges.FAIL);
        assertThat(rows.handled("INSERT INTO other VALUES (1)", "shop", AT)).isTrue();
        assertThat(rows.handled("UPDATE shop2.other SET v = 1", "shop", AT)).isTrue();
        assertThat(rows.handled("INSERT INTO", "shop", AT)).as("tables unknown").isTrue();
        assertThat(rows.handled("ALTER TABLE orders ADD COLUMN c INT", "shop", AT)).isFalse();
        assertThat(rows.handled("BEGIN", "shop", AT)).isFalse();
        assertThat(skipped).isEmpty();
    }

    @Test
    void skipsGivingTheStatementOut() {
        StatementLoggedRows rows = rows(StatementLoggedChanges.SKIP);
        assertThat(rows.handled("REPLACE INTO shop2.customers VALUES (1)", "shop", AT)).isTrue();
        assertThat(skipped).containsExactly("REPLACE INTO shop2.customers VALUES (1) in shop");
    }

    /** Captured: shop.orders and shop2.customers. */
    private StatementLoggedRows rows(StatementLoggedChanges action) {
        TableDecoders decoders =
                new TableDecoders() {
                    @Override
                    public RowsEventDecoder decoder(
                            String database, String table, TableMapEventData tableMap) {
                        return null;
                    }

                    @Override
                    public boolean captures(String database, String table) {
                        return (database + "." + table).matches("shop\\.orders|shop2\\.customers");
                    }
                };
        BinlogReader.Output out =
                new BinlogReader.Output() {
                    @Override
                    public void change(ChangeEvent change, BinlogPosition after) {}

                    @Override
                    public void skippedStatement(
                            String statement, String database, RowsEventOrigin origin) {
                        skipped.add(statement + " in " + database);
                    }
                };
        return new StatementLoggedRows(action, "source.x", decoders, out);
    }
}
