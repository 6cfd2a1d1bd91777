package dev.junction.gateway.routing;

/**
 * One place a request can be served.
 *
 * @param provider the configured provider name
 * @param model the model name sent to that provider
 */
public record Target(String provider, String model) {

	@Override
	public String toString() {
		return this.provider + "/" + this.model;
	}

}
