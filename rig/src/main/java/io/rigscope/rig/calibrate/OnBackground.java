package io.rigscope.rig.calibrate;

import java.time.Duration;

/** A provocation that runs on one {@link Background} thread: closing it waits for the thread, once. */
abstract class OnBackground implements Provocation {

    private final Background task;
    private final Duration wait;
    private boolean closed;

    OnBackground(Background task, Duration wait) {
        this.task = task;
        this.wait = wait;
    }

    @Override
    public final void close() {
        if (!closed) {
            closed = true;
            try {
                task.join(wait);
            } finally {
                ended();
            }
        }
    }

    /** Called once after the thread has ended (or the wait ran out): undo what the provocation set up. */
    protected void ended() {
    }
}
