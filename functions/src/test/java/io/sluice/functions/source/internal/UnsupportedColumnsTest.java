package io.sluice.functions.source.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class UnsupportedColumnsTest {

    @Test
    void findsTheColumnAStatementDeclaresWithAnUnsupportedType() {
        assertThat(UnsupportedColumns.declaredIn("ALTER TABLE t ADD COLUMN u UUID"))
                .containsExactly("u", "UUID");
        assertThat(UnsupportedColumns.declaredIn("ALTER TABLE t ADD uuid uuid NULL"))
                .containsExactly("uuid", "uuid");
        assertThat(UnsupportedColumns.declaredIn("CREATE TABLE t (id INT, `my ip` INET6)"))
                .containsExactly("my ip", "INET6");
        assertThat(UnsupportedColumns.declaredIn("ALTER TABLE t MODIFY a inet4 NOT NULL"))
                .containsExactly("a", "inet4");
        assertThat(UnsupportedColumns.declaredIn("ALTER TABLE t ADD COLUMN uuid CHAR(36)"))
                .isNull();
        assertThat(UnsupportedColumns.declaredIn("CREATE TABLE t (id INT, p POINT SRID 0)"))
                .isNull();
    }

    @Test
    void namesTheColumnTheTableAndWhy() {
        assertThat(UnsupportedColumns.message("db.t", "u", "UUID"))
                .isEqualTo(
                        "Column db.t.u (declared uuid) has a type Sluice cannot read: the DDL"
                                + " parser of Debezium 1.9, which reads every captured table's"
                                + " definition, does not know MariaDB's UUID, INET4 and INET6, so"
                                + " no row of db.t can be read");
    }
}
