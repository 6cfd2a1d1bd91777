package dev.junction.mock.pipeline;

/** Writes an error in one provider's error JSON. */
@FunctionalInterface
public interface ErrorFormat {

	/** The UTF-8 JSON body for an error. */
	byte[] body(MockError error);

}
