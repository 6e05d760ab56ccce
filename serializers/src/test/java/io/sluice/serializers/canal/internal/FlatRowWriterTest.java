package io.sluice.serializers.canal.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import io.sluice.serializers.event.RowImage;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The hand-assembled rows escape exactly as Jackson does, at every length and alignment. */
class FlatRowWriterTest {

    private static final JsonFactory JACKSON =
            new JsonFactoryBuilder().disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE).build();

    private static final String ALPHABET =
            "abcXYZ019 -_:/.,{}[]\"\\\u0000\u0001\u0008\t\n\u000b\f\r\u001f\u007fé€中😀\u00ff";

    @Test
    void matchesJacksonForRandomValues() throws IOException {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 2000; trial++) {
            String name = random.nextBoolean() ? "col" : "c\"o\\l\t";
            String[] values = new String[1 + random.nextInt(4)];
            RowImage.Builder row = new RowImage.Builder();
            for (int v = 0; v < values.length; v++) {
                if (random.nextInt(6) == 0) {
                    row.appendNull();
                    continue;
                }
                StringBuilder value = new StringBuilder();
                int length = random.nextInt(41);
                for (int i = 0; i < length; i++) {
                    // Mostly plain text, so both the 8-byte scan and the escapes are exercised.
                    value.appendCodePoint(
                            random.nextInt(4) == 0
                                    ? ALPHABET.codePointAt(
                                            ALPHABET.offsetByCodePoints(
                                                    0,
                                                    random.nextInt(
                                                            ALPHABET.codePointCount(
                                                                    0, ALPHABET.length()))))
                                    : 'a' + random.nextInt(26));
                }
                values[v] = value.toString();
                row.append(values[v]);
            }
            RowImage image = row.build();

            FlatRowWriter writer = new FlatRowWriter();
            byte[] prefix = FlatRowWriter.fieldPrefix(name);
            writer.beginObject();
            for (int c = 0; c < values.length; c++) {
                writer.field(prefix, image, c);
            }
            writer.endObject();

            assertThat(new String(writer.toByteArray(), StandardCharsets.UTF_8))
                    .as("trial %d", trial)
                    .isEqualTo(jackson(name, image, values.length));
        }
    }

    private static String jackson(String name, RowImage image, int columns) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator json = JACKSON.createGenerator(out)) {
            json.writeStartObject();
            for (int c = 0; c < columns; c++) {
                // Duplicate names are fine for a raw comparison; Jackson does not check them here.
                json.writeFieldName(name);
                if (image.isNull(c)) {
                    json.writeNull();
                } else {
                    json.writeUTF8String(image.utf8(), image.start(c), image.length(c));
                }
            }
            json.writeEndObject();
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
