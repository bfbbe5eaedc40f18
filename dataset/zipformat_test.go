package dataset

import (
	"archive/zip"
	"bytes"
	"testing"
)

// TestZipFormat: a zip archive given where text or .npy is read is named
// by its first file: an Excel .xlsx workbook (first "[Content_Types].xml",
// as Excel writes it, or docProps/app.xml, as openpyxl and so pandas'
// to_excel do) or an OpenDocument .ods is a spreadsheet to export as CSV,
// an .npz names its first array, a torch.save file says so, and a zipped
// file (data.csv.zip) is named to unzip. They all said "a zip archive (an
// .npz of np.savez, an Excel .xlsx workbook, a torch.save file, or zipped
// files such as data.csv.zip)", which named none.
func TestZipFormat(t *testing.T) {
	const xlsx = `a spreadsheet (an Excel .xlsx workbook, a zip archive), not text: export the sheet as CSV (Excel: Save As "CSV UTF-8") or, from Python, pd.read_excel(path).to_csv(out, index=False)`
	for _, tc := range []struct {
		what, first, content, want string
	}{
		{"Excel", "[Content_Types].xml", "<?xml", xlsx},
		{"openpyxl", "docProps/app.xml", "<?xml", xlsx},
		{"ods", "mimetype", "application/vnd.oasis.opendocument.spreadsheet", "a spreadsheet (an OpenDocument .ods, a zip archive), not text: export the sheet as CSV (LibreOffice: Save As, Text CSV) or, from Python, pd.read_excel(path).to_csv(out, index=False)"},
		{"npz", "X.npy", npyMagic, `an .npz of np.savez (a zip archive of .npy arrays, the first "X.npy"): save each array with np.save: np.save(out, np.load(path)["X"])`},
		{"torch", "archive/data.pkl", "\x80\x02", "a PyTorch file of torch.save (a zip archive): save the tensor with np.save(out, t.numpy()) (.npy) or as CSV text"},
		{"zipped CSV", "data.csv", "1,2\n", `a zip archive whose first file is "data.csv": unzip it (greedytl reads gzip-compressed input) and give the file inside`},
	} {
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: tc.first, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(tc.content))
		zw.Create("second.txt")
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		csv, npy := writeFile(t, "x.csv", b.Bytes()), writeFile(t, "x.npy", b.Bytes())
		if _, err := ReadMatrix(csv); err == nil || err.Error() != csv+": "+tc.want {
			t.Errorf("%s, ReadMatrix: got %v, want %q", tc.what, err, csv+": "+tc.want)
		}
		if _, err := ReadNPYMatrix(npy); err == nil || err.Error() != npy+": not a .npy file: "+tc.want {
			t.Errorf("%s, ReadNPYMatrix: got %v, want %q", tc.what, err, npy+": not a .npy file: "+tc.want)
		}
		if _, err := ReadLabels(csv, ""); err == nil || err.Error() != csv+": "+tc.want {
			t.Errorf("%s, ReadLabels: got %v, want %q", tc.what, err, csv+": "+tc.want)
		}
	}
}
