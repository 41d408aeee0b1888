using System.Collections.Concurrent;

namespace StoreSuppliers.Tests;

/// <summary>Passes every request on to the network unchanged and notes what went out and what came back.</summary>
public sealed class RecordingHandler() : DelegatingHandler(new SocketsHttpHandler())
{
    public ConcurrentQueue<(string Method, Uri Url, int? Status, IReadOnlyDictionary<string, string> Headers)> Sent { get; } = new();

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        var headers = request.Headers.ToDictionary(h => h.Key, h => string.Join(",", h.Value), StringComparer.OrdinalIgnoreCase);
        try
        {
            var response = await base.SendAsync(request, cancellationToken);
            Sent.Enqueue((request.Method.Method, request.RequestUri!, (int)response.StatusCode, headers));
            return response;
        }
        catch
        {
            Sent.Enqueue((request.Method.Method, request.RequestUri!, null, headers));
            throw;
        }
    }

    /// <summary>A client that sends through this handler (the IHttpClientFactory way of passing an HttpClient in).</summary>
    public static (StoreClient Client, RecordingHandler Handler) ClientFor(string baseUrl, string apiKey, Action<StoreClientOptions>? configure = null)
    {
        var handler = new RecordingHandler();
        var http = new HttpClient(handler) { Timeout = Timeout.InfiniteTimeSpan };
        var options = new StoreClientOptions { ApiKey = apiKey, BaseUrl = baseUrl, HttpClient = http };
        configure?.Invoke(options);
        return (new StoreClient(options), handler);
    }
}
