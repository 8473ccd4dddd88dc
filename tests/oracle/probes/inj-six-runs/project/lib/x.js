console.log("from lib")
