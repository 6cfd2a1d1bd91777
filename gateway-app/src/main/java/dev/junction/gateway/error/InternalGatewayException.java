package dev.junction.gateway.error;

/**
 * An unexpected failure inside the gateway; the details go to the log, never to the
 * client.
 */
public final class InternalGatewayException extends GatewayException {

	static final InternalGatewayException INSTANCE = new InternalGatewayException();

	private InternalGatewayException() {
		super("The gateway failed to process the request.", null);
	}

	@Override
	public int status() {
		return 500;
	}

	@Override
	public String type() {
		return "server_error";
	}

	@Override
	public String code() {
		return "internal_error";
	}

}
