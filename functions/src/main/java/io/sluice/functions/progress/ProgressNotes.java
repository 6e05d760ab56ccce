package io.sluice.functions.progress;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.OutputTag;

/** The side output that carries {@link ProgressNote}s from Normalize and Route to the owners. */
@Internal
public final class ProgressNotes {

    public static final TypeInformation<ProgressNote> TYPE = TypeInformation.of(ProgressNote.class);

    public static final OutputTag<ProgressNote> TAG = new OutputTag<>("progress", TYPE);

    private ProgressNotes() {}
}
