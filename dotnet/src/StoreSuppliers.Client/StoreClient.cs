using System;
using System.Net.Http;

namespace StoreSuppliers;

/// <summary>
/// The Store Suppliers client: <c>store.Suppliers.*</c> for every supplier route, <c>store.ApiKey</c> for the
/// key check, and the store's orders, products and stores. Thread-safe; make one and keep it.
/// </summary>
public sealed partial class StoreClient : IDisposable
{
    /// <summary>The package version, sent in the User-Agent.</summary>
    public const string Version = "3.2.0";

    private readonly HttpClient? _owned;

    /// <summary>A client with an API key and the service's address.</summary>
    public StoreClient(StoreClientOptions options)
    {
        if (options is null) throw new ArgumentNullException(nameof(options));
        if (string.IsNullOrWhiteSpace(options.ApiKey)) throw new ArgumentException("ApiKey is required (a Store Suppliers API key).", nameof(options));
        if (options.MaxRetries < 0) throw new ArgumentOutOfRangeException(nameof(options), "MaxRetries cannot be negative.");
        if (options.Timeout <= TimeSpan.Zero) throw new ArgumentOutOfRangeException(nameof(options), "Timeout must be positive.");
        var baseUrl = options.BaseUrl ?? options.HttpClient?.BaseAddress?.ToString();
        if (baseUrl is null || !Uri.TryCreate(baseUrl, UriKind.Absolute, out var baseUri) || (baseUri.Scheme != Uri.UriSchemeHttp && baseUri.Scheme != Uri.UriSchemeHttps))
        {
            throw new ArgumentException("BaseUrl is required, for example http://127.0.0.1:3000.", nameof(options));
        }
        var http = options.HttpClient;
        if (http is null)
        {
            // Our own: time-outs come from the options, per attempt.
            _owned = new HttpClient { Timeout = System.Threading.Timeout.InfiniteTimeSpan };
            http = _owned;
        }
        CreateServices(new StoreHttp(http, baseUri, options));
    }

    /// <summary>Disposes the HttpClient the client made (never one that was passed in).</summary>
    public void Dispose() => _owned?.Dispose();

    /// <summary>The key is not part of the printed form.</summary>
    public override string ToString() => "StoreClient";
}
