package io.sluice.functions.source.internal;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class UnsupportedColumnsTest {

    /** A type name to find (MariaDB 11.7's VECTOR, say): no type is unsupported at present. */
    private static final Set<String> SAMPLE = Set.of("vector");

    @Test
    void noTypeIsUnsupportedNow() {
        assertThat(UnsupportedColumns.TYPES).isEmpty();
        assertThat(UnsupportedColumns.declaredIn("CREATE TABLE t (id INT, u UUID, i INET6)"))
                .isNull();
    }

    @Test
    void findsTheColumnAStatementDeclaresWithAnUnsupportedType() {
        assertThat(UnsupportedColumns.declaredIn("ALTER TABLE t ADD COLUMN v VECTOR(3)", SAMPLE))
                .containsExactly("v", "VECTOR");
        assertThat(UnsupportedColumns.declaredIn("ALTER TABLE t ADD vector vector(3)", SAMPLE))
                .containsExactly("vector", "vector");
        assertThat(
                        UnsupportedColumns.declaredIn(
                                "CREATE TABLE t (id INT, `my v` VECTOR(2))", SAMPLE))
                .containsExactly("my v", "VECTOR");
        assertThat(
                        UnsupportedColumns.declaredIn(
                                "ALTER TABLE t ADD COLUMN vector CHAR(36)", SAMPLE))
                .isNull();
    }

    @Test
    void namesTheColumnTheTableAndWhy() {
        assertThat(UnsupportedColumns.message("db.t", "v", "VECTOR(3)"))
                .isEqualTo(
                        "Column db.t.v (declared vector(3)) has a type Sluice cannot read: the DDL"
                                + " parser of Debezium 1.9, which reads every captured table's"
                                + " definition, does not know it, so no row of db.t can be read");
    }
}
