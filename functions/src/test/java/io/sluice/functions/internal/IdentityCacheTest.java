package io.sluice.functions.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Derives once per instance, tells equal instances apart, and stays within its bound. */
class IdentityCacheTest {

    private final List<String> derived = new ArrayList<>();

    private final IdentityCache<String, Integer> cache =
            new IdentityCache<>(
                    2,
                    key -> {
                        derived.add(key);
                        return key.length();
                    });

    @Test
    void derivesEachInstanceOnce() {
        String key = new String("orders");
        assertThat(cache.get(key)).isEqualTo(6);
        assertThat(cache.get(key)).isEqualTo(6);
        assertThat(derived).containsExactly("orders");
    }

    @Test
    void anEqualButOtherInstanceIsDerivedAgain() {
        // A new table version is a new schema instance, even when equal to the last.
        cache.get(new String("orders"));
        cache.get(new String("orders"));
        assertThat(derived).containsExactly("orders", "orders");
    }

    @Test
    void isEmptiedWhenFull() {
        String a = new String("a");
        cache.get(a);
        cache.get(new String("bb"));
        assertThat(cache.size()).isEqualTo(2);
        cache.get(new String("ccc"));
        assertThat(cache.size()).isEqualTo(1);
        cache.get(a);
        assertThat(derived).containsExactly("a", "bb", "ccc", "a");
    }

    @Test
    void alternatingKeysAreEachDerivedOnce() {
        String a = new String("a");
        String b = new String("bb");
        for (int i = 0; i < 3; i++) {
            assertThat(cache.get(a)).isEqualTo(1);
            assertThat(cache.get(a)).isEqualTo(1);
            assertThat(cache.get(b)).isEqualTo(2);
        }
        assertThat(derived).containsExactly("a", "bb");
        assertThat(cache.get(new String("a"))).isEqualTo(1);
        assertThat(derived).containsExactly("a", "bb", "a");
    }

    @Test
    void refusesABoundBelowOne() {
        assertThatThrownBy(() -> new IdentityCache<String, Integer>(0, String::length))
                .hasMessageContaining("at least 1 entry, not 0");
    }
}
