package io.sluice.serializers.canal.internal;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

class CanalFlatSinkTest {

    private final CanalFlatSink sink = new CanalFlatSink(8, 64);

    @Test
    void singleWriteDuringDrainIsReturnedAsAnExactCopy() throws IOException {
        byte[] generatorBuffer = "xxhelloxx".getBytes();

        byte[] message = sink.drain(() -> sink.write(generatorBuffer, 2, 5));
        generatorBuffer[2] = 'J'; // the generator reuses its buffer

        assertThat(message).isEqualTo("hello".getBytes());
    }

    @Test
    void earlierWritesAndSeveralWritesDuringDrainAreJoinedInOrder() throws IOException {
        sink.write("ab".getBytes(), 0, 2);
        sink.write('c');

        byte[] first = sink.drain(() -> sink.write("de".getBytes(), 0, 2));
        byte[] second =
                sink.drain(
                        () -> {
                            sink.write("fg".getBytes(), 0, 2);
                            sink.write("hijklmnopq".getBytes(), 0, 10);
                            sink.write('r');
                        });
        byte[] empty = sink.drain(() -> {});

        assertThat(new String(first)).isEqualTo("abcde");
        assertThat(new String(second)).isEqualTo("fghijklmnopqr");
        assertThat(empty).isEmpty();
    }

    @Test
    void bufferGrownPastTheRetainedCapacityIsReleased() throws IOException {
        sink.write(new byte[100], 0, 100);
        assertThat(sink.capacity()).isGreaterThanOrEqualTo(100);

        assertThat(sink.drain(() -> {})).hasSize(100);

        assertThat(sink.capacity()).isEqualTo(8);
    }
}
