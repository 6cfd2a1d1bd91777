package dev.junction.messaging.web;

import jakarta.validation.Validator;
import jakarta.validation.constraints.NotNull;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * Bean Validation reads its message bundles from the class path the first time a
 * constraint fails. Failing one constraint at start-up, on the main thread, loads them
 * there, so no request's event loop ever waits for that file read.
 */
@Component
class ValidationWarmUp implements SmartInitializingSingleton {

	private final Validator validator;

	ValidationWarmUp(Validator validator) {
		this.validator = validator;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.validator.validate(new Unset(null));
	}

	/** A value that fails its constraint. */
	private record Unset(@NotNull String value) {
	}

}
